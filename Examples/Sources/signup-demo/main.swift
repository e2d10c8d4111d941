// The sign-up demo: starts the reference server in-process on a free loopback port (or talks to
// the server at --base-url), types a scripted sequence of user names into the validation
// pipeline, and prints a timeline: keystrokes, requests, retries and what the form shows.
// Exits with 0 when every step showed what it should.
//
//     swift run --package-path Examples signup-demo [--base-url http://127.0.0.1:8080]

import Dispatch
import Foundation
import SignUpClient
import SignUpServer
import Streams
import Synchronization

let start = DispatchTime.now()
let printLock = NSLock()

/// Prints a line of the timeline, stamped with the time since the demo started.
@Sendable func timeline(_ line: String) {
    let milliseconds = (DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    let stamp = String(milliseconds).leftPadded(to: 6)
    printLock.lock()
    print("\(stamp) ms  \(line)")
    printLock.unlock()
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}

// MARK: The server

var baseURL: String
let arguments = CommandLine.arguments.dropFirst()
if let index = arguments.firstIndex(of: "--base-url"), arguments.indices.contains(index + 1) {
    baseURL = arguments[index + 1]
    timeline("using the server at \(baseURL)")
} else {
    let ready = DispatchSemaphore(value: 0)
    let boundPort = Mutex(0)
    let app = SignUpServer.application(port: 0, onRunning: { port in
        boundPort.withLock { $0 = port }
        ready.signal()
    })
    Task.detached { try await app.runService() }   // off the main actor, which waits below
    guard ready.wait(timeout: .now() + 60) == .success else {
        print("FAILED: the embedded server did not start")
        exit(1)
    }
    baseURL = "http://127.0.0.1:\(boundPort.withLock { $0 })"
    timeline("embedded signup-server listening on \(baseURL)")
}

// MARK: The form

let queue = DispatchQueue(label: "signup-form")
let client = UserNameClient(baseURL: baseURL, scheduler: queue, log: timeline)
let form = SignUpForm(client: client, scheduler: queue)
let shown = DispatchSemaphore(value: 0)
let observer = form.$results.dropFirst().sink { _ in shown.signal() }

/// One scripted step: the keystrokes typed, and what the form must show once they settle.
struct Step {
    let keystrokes: [String]
    let message: String
    let isValid: Bool
}

func typing(_ name: String) -> [String] {
    (1...max(1, name.count)).map { String(name.prefix($0)) }
}

let steps = [
    Step(keystrokes: typing("jo"), message: "User names need at least 4 characters", isValid: false),
    Step(keystrokes: typing("johndoe"), message: "That name is taken", isValid: false),
    Step(keystrokes: ["admi", "admin"], message: "That name is not allowed", isValid: false),
    Step(keystrokes: ["illegalresponse"], message: NetworkErrorMessages.decoding, isValid: false),
    Step(keystrokes: ["servererror"], message: NetworkErrorMessages.server, isValid: false),
    Step(keystrokes: ["maintenance"], message: "Available", isValid: true),
    Step(keystrokes: typing("streams"), message: "Available", isValid: true),
    Step(keystrokes: [""], message: "Please choose a user name", isValid: false),
]

/// The messages the form shows for errors, as the error type words them.
enum NetworkErrorMessages {
    static let decoding = "The server's answer has a format this version of the app does not understand. Please update the app."
    static let server = "The server had a problem. Please try again later."
}

var passed = 0
for step in steps {
    for keystroke in step.keystrokes {
        timeline("typed    \"\(keystroke)\"")
        queue.sync { form.userName = keystroke }
        usleep(60_000)   // a fast typist: 60 ms between keystrokes, well inside the debounce
    }
    guard shown.wait(timeout: .now() + 30) == .success else {
        timeline("FAILED   no result for \"\(step.keystrokes.last!)\"")
        continue
    }
    let (message, isValid) = queue.sync { (form.message, form.isValid) }
    let ok = message == step.message && isValid == step.isValid
    if ok { passed += 1 }
    timeline("form     \(message) — Sign up \(isValid ? "enabled" : "disabled")\(ok ? "" : "   (expected: \(step.message))")")
}
observer.cancel()

// MARK: Recovery options (StreamsRecovery): see RecoveryStep.swift
print("")
let recovered = recoveryStep(client: client, queue: queue, timeline: timeline)

print("")
if passed == steps.count && recovered {
    print("OK: all \(steps.count) steps behaved as expected (debounce, removeDuplicates, switchToLatest, asResult, share, retry with Retry-After), and the recovery step (handler chain, Try Again, Cancel, minimum duration).")
    exit(0)
} else {
    print("FAILED: \(steps.count - passed) of \(steps.count) steps did not show what they should\(recovered ? "" : ", and the recovery step failed").")
    exit(1)
}
