import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// A hand-written stand-in for the `Client` that Swift OpenAPI Generator makes from a document
/// with one operation, `getGreeting` (`GET /greeting`: 200 with a greeting, 503 documented,
/// anything else undocumented), built as generated code is, on the runtime's `UniversalClient`,
/// so that the middleware is tested behind a real client's error wrapping and the guide's
/// example compiles as written.
struct Client: Sendable {
    /// The operation's documented outcomes, shaped as the generator shapes them.
    enum GetGreetingOutput: Sendable {
        /// 200, with its body.
        struct Ok: Sendable {
            /// The body by content type.
            enum Body: Sendable {
                case json(Greeting)

                /// The JSON body.
                var json: Greeting {
                    get throws {
                        switch self {
                        case .json(let greeting): greeting
                        }
                    }
                }
            }

            var body: Body
        }

        /// The greeting schema.
        struct Greeting: Sendable {
            var message: String
        }

        case ok(Ok)
        case serviceUnavailable
        case undocumented(statusCode: Int, UndocumentedPayload)
    }

    private let client: UniversalClient

    init(
        serverURL: URL, configuration: Configuration = .init(), transport: any ClientTransport,
        middlewares: [any ClientMiddleware] = []
    ) {
        client = UniversalClient(
            serverURL: serverURL, configuration: configuration, transport: transport, middlewares: middlewares)
    }

    func getGreeting() async throws -> GetGreetingOutput {
        try await client.send(
            input: (), forOperation: "getGreeting",
            serializer: { _ in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/greeting"), nil) },
            deserializer: { response, body in
                switch response.status.code {
                case 200:
                    let message = try await String(collecting: body ?? HTTPBody(), upTo: 1_024)
                    return .ok(.init(body: .json(.init(message: message))))
                case 503:
                    return .serviceUnavailable
                default:
                    return .undocumented(
                        statusCode: response.status.code, .init(headerFields: response.headerFields, body: body))
                }
            })
    }
}
