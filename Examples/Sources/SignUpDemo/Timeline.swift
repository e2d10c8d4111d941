import Dispatch
import Foundation
import SignUpClient

/// The demo's record of what happened, printed as it happens with the time since the start,
/// and kept so that a step can wait for an event and check what it saw.
final class Timeline: @unchecked Sendable {
    /// One thing that happened.
    enum Entry {
        case event(CheckEvent)
        case shown(name: String, message: String, isValid: Bool)
    }

    private let output: @Sendable (String) -> Void
    private let start = DispatchTime.now()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var entries: [Entry] = []

    init(output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    /// Prints `text`, stamped with the milliseconds since the start (an empty line stays empty).
    func line(_ text: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !text.isEmpty else { return output("") }
        let milliseconds = (DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
        let stamp = String(milliseconds)
        output(String(repeating: " ", count: max(0, 6 - stamp.count)) + stamp + " ms  " + text)
    }

    /// Records and prints what the form or the client did.
    @Sendable func record(_ event: CheckEvent) {
        line(Self.describe(event))
        append(.event(event))
    }

    /// Records and prints what the form shows for `name`.
    func show(name: String, message: String, isValid: Bool) {
        line("form     \(message) — Sign up \(isValid ? "enabled" : "disabled")")
        append(.shown(name: name, message: message, isValid: isValid))
    }

    private func append(_ entry: Entry) {
        condition.lock()
        entries.append(entry)
        condition.broadcast()
        condition.unlock()
    }

    /// A position in the record, for `wait(from:for:)` and `events(since:)`.
    func mark() -> Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    /// The entries recorded since `mark`.
    func events(since mark: Int) -> [Entry] {
        condition.lock()
        defer { condition.unlock() }
        return Array(entries[mark...])
    }

    /// Waits, at most 30 seconds, until an entry recorded since `mark` is the one `wait` names.
    func wait(from mark: Int, for wait: Step.Wait) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 30)
        condition.lock()
        defer { condition.unlock() }
        while !entries[mark...].contains(where: wait.isMet(by:)) {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    /// The timeline's words for an event.
    static func describe(_ event: CheckEvent) -> String {
        switch event {
        case .notSent(let name, let reason):
            let why = name.isEmpty ? "is empty" : "is shorter than \(SignUpForm<DispatchQueue>.minimumLength) characters"
            return "local    \"\(name)\" \(why): answered as the server would (\(reason)), no request"
        case .swallowed(let name):
            return "dedup    \"\(name)\" swallowed by removeDuplicates: it is the name checked last, no request"
        case .request(let name):
            return "request  GET /isUserNameAvailable?userName=\(name)"
        case let .retry(name, number, hint, backoff, jittered, wait):
            let backoffText = (jittered ? "up to " : "") + seconds(backoff)
            let hintText = hint.map { "Retry-After \(seconds($0))" } ?? "no Retry-After"
            let winner = hint.map { wait == $0 && $0 > .zero ? "the server's hint won" : "the backoff won" } ?? "the backoff"
            return
                "retry    #\(number) for \"\(name)\": server \(hintText), backoff \(backoffText) -> waits \(seconds(wait)) (\(winner))"
        case .cancelled(let name, let inFlight):
            return "cancel   the check of \"\(name)\" is stale: switchToLatest cancelled it "
                + (inFlight ? "with its request in flight" : "during its retry wait")
        }
    }

    /// `duration` in seconds with up to three decimals, or in milliseconds below a second.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        let text = String(format: "%.3f", Double(milliseconds) / 1_000)
            .replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        return "\(text) s"
    }
}
