// A loopback HTTPS server on SwiftNIO and NIOSSL, for the redirect tests over real TLS.
#if canImport(Glibc)
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import StreamsNetworkingTestSupport
import Synchronization

/// A loopback HTTPS/1.1 server (127.0.0.1 only, an ephemeral port) with the test certificate
/// (``TestCertificate``), that records every request it reads and answers each with what the
/// test's handler returns, then closes the connection. A request is recorded only once the TLS
/// handshake succeeded and the request arrived whole, so a recorded request was sent over TLS.
///
/// ```swift
/// let server = try await TLSLoopbackServer { _ in .redirect(to: "http://127.0.0.1:8080/landing") }
/// defer { server.stop() }
/// ```
final class TLSLoopbackServer: Sendable {
    /// A request as it arrived, decrypted.
    struct Request: Sendable {
        /// The method, such as `GET`.
        let method: String
        /// The path and query, as sent.
        let target: String
        /// The headers, in the order sent.
        let headers: HTTPHeaders

        /// The `Host` header: `127.0.0.1:PORT`, the authority the client used.
        var host: String { headers.first(name: "Host") ?? "" }

        /// The path without the query.
        var path: String { String(target.prefix { $0 != "?" }) }

        /// The value of the header `name`, in any case, or nil.
        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let channel: any Channel
    private let log: RequestLog

    /// Starts a server that answers with `handler`, on the event loops AsyncHTTPClient uses by
    /// default.
    init(_ handler: @escaping @Sendable (Request) -> LoopbackHTTPServer.Response) async throws {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try TestCertificate.certificate())],
            privateKey: .privateKey(try TestCertificate.privateKey()))
        let context = try NIOSSLContext(configuration: tls)
        let log = RequestLog()
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: context))
                    try pipeline.configureHTTPServerPipeline()
                    try pipeline.addHandler(Responder(log: log, handler: handler))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            channel.close(promise: nil)
            throw ChannelError.unknownLocalAddress
        }
        self.port = port
        self.log = log
    }

    /// The requests read so far, in order.
    var requests: [Request] { log.requests.withLock { $0 } }

    /// `https://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "/") -> String { "https://127.0.0.1:\(port)\(path)" }

    /// Stops accepting; each connection is closed after its response anyway.
    func stop() {
        channel.close(promise: nil)
    }
}

/// The requests a ``TLSLoopbackServer`` read, shared by its connections.
private final class RequestLog: Sendable {
    let requests = Mutex<[TLSLoopbackServer.Request]>([])
}

/// Reads one request of a connection (after the TLS and HTTP handlers), records it, answers it
/// and closes the connection.
private final class Responder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let log: RequestLog
    private let handler: @Sendable (TLSLoopbackServer.Request) -> LoopbackHTTPServer.Response
    private var head: HTTPRequestHead?

    init(log: RequestLog, handler: @escaping @Sendable (TLSLoopbackServer.Request) -> LoopbackHTTPServer.Response) {
        self.log = log
        self.handler = handler
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let request = TLSLoopbackServer.Request(method: head.method.rawValue, target: head.uri, headers: head.headers)
            log.requests.withLock { $0.append(request) }
            let response = handler(request)
            var headers = HTTPHeaders(response.headers.map { ($0.key, $0.value) })
            headers.replaceOrAdd(name: "Content-Length", value: "\(response.body.utf8.count)")
            headers.replaceOrAdd(name: "Connection", value: "close")
            let status = HTTPResponseStatus(statusCode: response.status)
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A failed handshake (a client that does not trust the certificate) or a bad request.
        context.close(promise: nil)
    }
}
#endif
