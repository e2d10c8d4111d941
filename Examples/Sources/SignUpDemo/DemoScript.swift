import Dispatch
import Foundation
import SignUpClient
import Streams
import StreamsExt
import StreamsNetworking

/// The sign-up demo's script: types user names into the sign-up form as a fast typist would,
/// against the server at a base URL, and prints a timeline of keystrokes, what the pipeline did
/// with them (debounce, removeDuplicates, switchToLatest, retries) and what the form shows.
///
/// It needs only a server that follows the sign-up protocol (see `SignUpRules`), so that
/// `signup-demo --base-url URL` can check any implementation of it.
///
/// ```swift
/// let passed = DemoScript(baseURL: "http://127.0.0.1:8080").run()
/// ```
public struct DemoScript: Sendable {
    /// The server's address.
    public let baseURL: String
    /// Where the timeline goes, one line at a time.
    public let output: @Sendable (String) -> Void

    /// Makes the script; the timeline goes to standard output unless told otherwise.
    public init(baseURL: String, output: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.baseURL = baseURL
        self.output = output
    }

    /// Runs every step and returns whether each one showed what it should.
    public func run() -> Bool {
        let timeline = Timeline(output: output)
        let queue = DispatchQueue(label: "signup-form")
        let client = UserNameClient(baseURL: baseURL, scheduler: queue, events: timeline.record)
        let form = SignUpForm(client: client, scheduler: queue, events: timeline.record)
        let shown = form.$checkedName.dropFirst().sink { name in
            // On the form's queue, after the message and the button were set for `name`.
            timeline.show(name: name ?? "", message: form.message, isValid: form.isValid)
        }
        defer { shown.cancel() }

        timeline.line("server   \(baseURL)")
        var passed = 0
        for (index, step) in Self.steps.enumerated() {
            timeline.line("")
            timeline.line("step \(index + 1)  \(step.title)")
            let mark = timeline.mark()
            type(step.keystrokes, into: form, on: queue, timeline: timeline)
            if let interruption = step.interruption {
                guard timeline.wait(from: mark, for: interruption.when) else {
                    timeline.line("FAILED   \(interruption.when.missing)")
                    continue
                }
                type(interruption.keystrokes, into: form, on: queue, timeline: timeline)
            }
            guard timeline.wait(from: mark, for: step.until) else {
                timeline.line("FAILED   \(step.until.missing)")
                continue
            }
            let seen = timeline.events(since: mark)
            let (message, isValid) = queue.sync { (form.message, form.isValid) }
            if let problem = step.check(seen, message, isValid) {
                timeline.line("FAILED   \(problem)")
            } else {
                passed += 1
            }
        }
        timeline.line("")
        timeline.line("step \(Self.steps.count + 1)  A server error presented with recovery options: Try Again once, then Cancel")
        if recoveryStep(client: client, queue: queue, timeline: timeline) { passed += 1 }
        let total = Self.steps.count + 1
        timeline.line("")
        if passed == total {
            timeline.line(
                "OK: all \(passed) steps behaved as expected (debounce, removeDuplicates, a local length check, switchToLatest, asResult, share, retry with Retry-After, recovery options, minimum duration)."
            )
            return true
        }
        timeline.line("FAILED: \(total - passed) of \(total) steps did not show what they should.")
        return false
    }

    /// Types `keystrokes` into the form, 60 ms apart: a fast typist, well inside the debounce.
    private func type(_ keystrokes: [String], into form: SignUpForm<DispatchQueue>, on queue: DispatchQueue, timeline: Timeline) {
        for (index, keystroke) in keystrokes.enumerated() {
            if index > 0 { usleep(60_000) }
            timeline.line("typed    \"\(keystroke)\"")
            queue.sync { form.userName = keystroke }
        }
    }
}
