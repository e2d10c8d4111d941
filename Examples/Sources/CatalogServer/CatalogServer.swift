import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A small shop API for the typed-client example, answering the way real APIs do when things
/// go wrong:
///
/// | request | answer |
/// | --- | --- |
/// | `GET /products` | 200, `ETag: "v1"`, a catalogue whose second product is malformed |
/// | `GET /products/1` | 200, one product |
/// | `GET /products/ID` (any other) | 404, RFC 9457 problem details |
/// | `GET /busy` | 503 with `Retry-After: 1` the first time, then 200 |
/// | `GET /limited` | 429 with `RateLimit: "default";r=0;t=120` |
/// | `GET /broken` | 200 with a body that is not JSON |
/// | `GET /crash` | 500 with `{"message": "database unavailable"}` |
/// | `POST /orders` | 201 `{"orderID": N}`, the same N for a repeated `Idempotency-Key`; 422 with field errors for a quantity below 1; 400 without a key |
/// | `POST /auth/token` | 200 `{"accessToken": "token-N"}` for `{"refreshToken": "demo-refresh-token"}` (the only access token accepted from then on); 400 `{"error": "invalid_grant"}` for any other |
/// | `GET /account` | 200 `{"id": 7, "name": "Ada"}` with the latest access token as `Authorization: Bearer …`; 401 with `WWW-Authenticate` for any other (none is accepted before the first refresh) |
///
/// ```swift
/// let server = try await RunningCatalogServer.start()
/// // … requests to server.baseURL …
/// try await server.stop()
/// ```
public enum CatalogServer {
    /// The refresh token `POST /auth/token` accepts.
    public static let refreshToken = "demo-refresh-token"

    /// The server's state: how often `/busy` was asked, the orders by idempotency key, and the
    /// access tokens issued (the latest is the only one accepted).
    final class State: Sendable {
        let busyRequests = Mutex(0)
        let orders = Mutex<[String: Int]>([:])
        let issuedTokens = Mutex(0)
    }

    struct NewOrder: Decodable {
        let productID: Int
        let quantity: Int
    }

    struct TokenRequest: Decodable {
        let refreshToken: String
    }

    /// Makes the application; `onRunning` is told the port once it accepts connections.
    /// `traffic` records the requests to `/account`, `/auth/token` and `/crash`; with
    /// `holdingRejections` above 1, the server holds its 401s from `/account` until that many
    /// have arrived.
    ///
    /// ```swift
    /// try await CatalogServer.application(port: 8081).runService()
    /// ```
    public static func application(
        host: String = "127.0.0.1", port: Int = 8081, logger: Logger? = nil, traffic: CatalogTraffic = CatalogTraffic(),
        holdingRejections: Int = 0, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let state = State()
        let hold = RejectionHold(count: holdingRejections)
        let router = Router()
        router.get("products") { _, _ -> Response in
            json(
                .ok,
                #"{"products":[{"id":1,"name":"Tea"},{"id":"two","name":"Cake"},{"id":3,"name":"Jam"}]}"#,
                headers: [.eTag: "\"v1\""])
        }
        router.get("products/:id") { _, context -> Response in
            let id = context.parameters.get("id") ?? ""
            guard id == "1" else {
                return json(
                    .notFound, #"{"type":"about:blank","title":"Not Found","status":404,"detail":"There is no product \#(id)."}"#,
                    contentType: "application/problem+json")
            }
            return json(.ok, #"{"id":1,"name":"Tea"}"#)
        }
        router.get("busy") { _, _ -> Response in
            let count = state.busyRequests.withLock { count in
                count += 1
                return count
            }
            guard count > 1 else { return json(.serviceUnavailable, "{}", headers: [.retryAfter: "1"]) }
            return json(.ok, #"{"products":[]}"#)
        }
        router.get("limited") { _, _ -> Response in
            var response = json(.tooManyRequests, #"{"error":"Too Many Requests"}"#)
            response.headers[HTTPFields.Element.Name("RateLimit")!] = #""default";r=0;t=120"#
            return response
        }
        router.get("broken") { _, _ -> Response in json(.ok, #"{"products": ["#) }
        router.get("crash") { _, _ -> Response in
            traffic.record("GET /crash")
            return json(.internalServerError, #"{"message":"database unavailable"}"#)
        }
        router.post("auth/token") { request, _ -> Response in
            traffic.record("POST /auth/token")
            let body = try await request.body.collect(upTo: 65_536)
            guard let grant = try? JSONDecoder().decode(TokenRequest.self, from: Data(buffer: body)),
                grant.refreshToken == refreshToken
            else {
                return json(.badRequest, #"{"error":"invalid_grant"}"#)
            }
            let issued = state.issuedTokens.withLock { issued in
                issued += 1
                return issued
            }
            return json(.ok, #"{"accessToken":"token-\#(issued)"}"#)
        }
        router.get("account") { request, _ -> Response in
            let authorization = request.headers[.authorization]
            traffic.record("GET /account \(authorization ?? "without a token")")
            let issued = state.issuedTokens.withLock { $0 }
            guard issued > 0, authorization == "Bearer token-\(issued)" else {
                await hold.arrive()
                return json(
                    .unauthorized, #"{"error":"invalid_token"}"#,
                    headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
            }
            return json(.ok, #"{"id":7,"name":"Ada"}"#)
        }
        router.post("orders") { request, context -> Response in
            guard let key = request.headers[HTTPFields.Element.Name("Idempotency-Key")!] else {
                return json(.badRequest, #"{"error":"Idempotency-Key required"}"#)
            }
            let body = try await request.body.collect(upTo: 65_536)
            guard let order = try? JSONDecoder().decode(NewOrder.self, from: Data(buffer: body)) else {
                return json(.badRequest, #"{"message":"The body is not an order."}"#)
            }
            guard order.quantity >= 1 else {
                return json(
                    .unprocessableContent,
                    #"{"title":"Invalid order","status":422,"errors":[{"pointer":"/quantity","detail":"must be at least 1"}]}"#,
                    contentType: "application/problem+json")
            }
            let orderID = state.orders.withLock { orders in
                if let known = orders[key] { return known }
                orders[key] = orders.count + 1
                return orders.count
            }
            return json(.created, #"{"orderID":\#(orderID)}"#)
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "catalog-server"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    private static func json(
        _ status: HTTPResponse.Status, _ body: String, contentType: String = "application/json",
        headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// The catalogue server running in this process until ``stop()``.
///
/// ```swift
/// let server = try await RunningCatalogServer.start()
/// print(server.baseURL)
/// try await server.stop()
/// ```
public struct RunningCatalogServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts a server on a free loopback port and returns once it accepts connections; see
    /// ``CatalogServer/application(host:port:logger:traffic:holdingRejections:onRunning:)`` for
    /// `traffic` and `holdingRejections`.
    ///
    /// ```swift
    /// let server = try await RunningCatalogServer.start()
    /// ```
    public static func start(
        logger: Logger? = nil, traffic: CatalogTraffic = CatalogTraffic(), holdingRejections: Int = 0
    ) async throws -> RunningCatalogServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = CatalogServer.application(
            port: 0, logger: logger, traffic: traffic, holdingRejections: holdingRejections,
            onRunning: { continuation.yield($0) })
        let group = ServiceGroup(services: [app], logger: app.logger)
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports {
            return RunningCatalogServer(baseURL: URL(string: "http://127.0.0.1:\(port)")!, group: group, task: task)
        }
        await group.triggerGracefulShutdown()
        try await task.value
        throw CancellationError()
    }

    /// Stops the server gracefully.
    ///
    /// ```swift
    /// try await server.stop()
    /// ```
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
