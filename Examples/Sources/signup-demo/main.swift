// The sign-up demo: starts the reference server in-process on a free loopback port (or talks to
// the server at --base-url), types a scripted sequence of user names into the validation
// pipeline in labelled steps, and prints a timeline: keystrokes, what debounce,
// removeDuplicates and switchToLatest did with them, requests, retries beside the server's
// Retry-After, and what the form shows. Exits with 0 when every step showed what it should.
//
//     swift run --package-path Examples signup-demo [--base-url http://127.0.0.1:8080]

import Dispatch
import Foundation
import SignUpDemo
import SignUpServer
import Synchronization

let arguments = Array(CommandLine.arguments.dropFirst())
let baseURL: String
if arguments.count == 2, arguments[0] == "--base-url" {
    baseURL = arguments[1]
} else if arguments.isEmpty {
    let ready = DispatchSemaphore(value: 0)
    let boundPort = Mutex(0)
    let app = SignUpServer.application(
        port: 0,
        onRunning: { port in
            boundPort.withLock { $0 = port }
            ready.signal()
        })
    Task.detached { try await app.runService() }  // off the main thread, which waits below
    guard ready.wait(timeout: .now() + 60) == .success else {
        print("FAILED: the embedded server did not start")
        exit(1)
    }
    baseURL = "http://127.0.0.1:\(boundPort.withLock { $0 })"
    print("embedded signup-server listening on \(baseURL)")
} else {
    print("usage: signup-demo [--base-url URL]")
    exit(2)
}
exit(DemoScript(baseURL: baseURL).run() ? 0 : 1)
