import Foundation
import SignUpDemo
import Synchronization
import Testing

/// The demo's steps against two implementations of the sign-up protocol: the reference server on
/// Hummingbird, and an independent one on plain sockets whose `Retry-After` is an HTTP-date and
/// whose clock is hours off the client's. The two runs go side by side: each spends its 12
/// seconds mostly waiting on real time, and neither shares a server or a session's state.
@Suite("The demo against two servers")
struct DemoScriptTests {
    /// Runs the demo against `baseURL` on a thread of its own (it types in real time and waits
    /// for the form), and returns whether it passed and its timeline.
    static func runDemo(against baseURL: String) async -> (passed: Bool, timeline: [String]) {
        let lines = Mutex<[String]>([])
        let passed = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let script = DemoScript(baseURL: baseURL, output: { line in lines.withLock { $0.append(line) } })
                continuation.resume(returning: script.run())
            }
        }
        return (passed, lines.withLock { $0 })
    }

    @Test func passesAgainstTheReferenceServer() async throws {
        try await SignUpIntegrationTests.withServer { baseURL in
            let (passed, timeline) = await Self.runDemo(against: baseURL)
            #expect(passed, "\(timeline.joined(separator: "\n"))")
        }
    }

    @Test func passesAgainstAnIndependentServerWithHTTPDatesAndASkewedClock() async throws {
        let server = try IndependentSignUpServer()
        defer { server.stop() }
        let (passed, timeline) = await Self.runDemo(against: server.baseURL)
        #expect(passed, "\(timeline.joined(separator: "\n"))")
        // The HTTP-date hint was measured against the server's own Date header: two seconds,
        // not the three hours its clock is ahead.
        #expect(timeline.contains { $0.contains("Retry-After 2 s") }, "\(timeline.joined(separator: "\n"))")
    }
}
