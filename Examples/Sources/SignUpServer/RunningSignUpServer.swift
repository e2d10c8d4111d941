import Hummingbird
import Logging
import ServiceLifecycle

/// The reference sign-up server running in this process until ``stop()``: what the tests and
/// an embedding program use instead of cancelling the task that runs the application.
///
/// Cancelling that task closes the listening socket from two sides at once (the cancelled accept
/// loop, then the graceful shutdown that cancellation also starts), and Hummingbird logs the
/// second close as an error. ``stop()`` asks for the graceful shutdown only: the server stops
/// accepting, finishes the requests under way and closes its socket once, so a clean stop logs
/// no error, and an error the server does meet is still logged and thrown.
///
/// ```swift
/// let server = try await RunningSignUpServer.start()
/// // … requests to server.baseURL …
/// try await server.stop()
/// ```
public struct RunningSignUpServer: Sendable {
    /// The address the server listens on, such as `127.0.0.1`.
    public let host: String
    /// The port the server listens on.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// `http://HOST:PORT`, the base URL of the sign-up protocol's requests.
    ///
    /// ```swift
    /// let url = "\(server.baseURL)/isUserNameAvailable?userName=alice"
    /// ```
    public var baseURL: String { "http://\(host):\(port)" }

    /// Starts the server on `host` and `port` (0 picks a free one) and returns once it accepts
    /// connections; throws the server's error if it cannot start.
    ///
    /// ```swift
    /// let server = try await RunningSignUpServer.start(rules: SignUpRules())
    /// ```
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        rules: SignUpRules = SignUpRules(),
        logger: Logger? = nil
    ) async throws -> RunningSignUpServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = SignUpServer.application(
            host: host, port: port, rules: rules, logger: logger,
            onRunning: { continuation.yield($0) })
        let group = ServiceGroup(services: [app], logger: app.logger)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await boundPort in ports {
            return RunningSignUpServer(host: host, port: boundPort, group: group, task: task)
        }
        // The server ended before it listened (its error is thrown here), or this task was
        // cancelled while waiting.
        await group.triggerGracefulShutdown()
        try await task.value
        throw CancellationError()
    }

    /// Stops the server gracefully and returns when it has stopped; throws the error the server
    /// ended with, if any.
    ///
    /// ```swift
    /// try await server.stop()
    /// ```
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
