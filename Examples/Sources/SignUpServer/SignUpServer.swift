import Hummingbird
import Logging

/// The reference sign-up server: `GET /isUserNameAvailable?userName=NAME` (see
/// ``SignUpRules``), on loopback by default.
public enum SignUpServer {
    /// Makes the server application. `port` 0 picks a free port; `onRunning` is told the port
    /// once the server accepts connections; `logger` receives the server's log (Hummingbird's
    /// default, labelled `signup-server`, when nil). To run it in-process and stop it again, use
    /// ``RunningSignUpServer``.
    ///
    /// ```swift
    /// let app = SignUpServer.application(port: 8080)
    /// try await app.runService()
    /// ```
    public static func application(
        host: String = "127.0.0.1",
        port: Int = 8080,
        rules: SignUpRules = SignUpRules(),
        logger: Logger? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("isUserNameAvailable") { request, _ -> Response in
            let name = request.uri.queryParameters.get("userName")
            return response(for: rules.answer(for: name))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "signup-server"),
            onServerRunning: { channel in
                await onRunning(channel.localAddress?.port ?? port)
            },
            logger: logger)
    }

    /// The HTTP response for an answer.
    static func response(for answer: SignUpRules.Answer) -> Response {
        switch answer {
        case .available(let available):
            return json(.ok, #"{"isAvailable": \#(available)}"#)
        case .badRequest(let reason):
            return json(.badRequest, #"{"error": true, "reason": "\#(reason)"}"#)
        case .malformed:
            return json(.ok, #"{"userName": "illegalresponse"}"#)
        case .serverError(let reason, let retryAfter):
            var response = json(.internalServerError, #"{"error": true, "reason": "\#(reason)"}"#)
            if let retryAfter {
                response.headers[.retryAfter] = String(retryAfter)
            }
            return response
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
