import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import StreamsNetworking

/// StreamsNetworking's request publisher over AsyncHTTPClient, for servers: the same
/// ``HTTPTransport`` as `URLSession`, so `validateStatus()`, `decode`, the method-aware retry,
/// `Authenticator` and the `RedirectPolicy` work over it unchanged.
///
/// It owns an `HTTPClient` whose own redirect following is off (`.disallow`): each redirect
/// comes back to the transport, which asks the `RedirectPolicy` exactly as the URLSession
/// transport does, and follows it itself, up to ``maximumRedirects`` in a row. Shut it down with
/// ``shutdown()`` when done, as any `HTTPClient`.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let user = transport.requestPublisher(for: URLRequest(url: userURL))
///     .validateStatus()
///     .decode(type: User.self, decoder: JSONDecoder())
///     .retry(2, backoff: .exponential(), scheduler: DispatchQueue.global())
/// // ...
/// try await transport.shutdown()
/// ```
///
/// What differs from URLSession: a success or redirect body longer than ``maximumBodySize``
/// fails with `URLError(.dataLengthExceedsMaximum)` (not retryable), since AsyncHTTPClient
/// streams bodies and this transport collects them into `Data`; the body of an error status
/// (400 and above) is read only up to one byte past `ProblemDetails.parsingLimit` (64 KiB), the
/// rest left unread, so that a huge error page still gives its status (and `validateStatus()`
/// sees it is too long to parse); `URLRequest.timeoutInterval`
/// bounds each exchange as a whole (URLSession bounds the time between two packets), and an
/// infinite one sets no deadline; an `httpBodyStream` is read into memory (up to
/// ``maximumBodySize``) before the request is sent, once: a request whose stream was read
/// already fails with `NetworkError.invalidRequest`.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The client that sends the requests; its configuration follows no redirect.
    public let client: HTTPClient
    /// The largest response body collected, in bytes.
    public let maximumBodySize: Int
    /// The most redirects followed in a row, as URLSession's limit: one more fails with
    /// `URLError(.httpTooManyRedirects)`.
    public let maximumRedirects: Int

    /// The configuration ``init(configuration:eventLoopGroup:maximumBodySize:maximumRedirects:)``
    /// uses by default: AsyncHTTPClient's, with no retry of failed connection attempts inside
    /// the client, so that a refused connection fails at once with
    /// `URLError(.cannotConnectToHost)` and the publisher's `retry` decides, as with URLSession.
    ///
    /// ```swift
    /// var configuration = AsyncHTTPClientTransport.defaultConfiguration
    /// configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 32
    /// let transport = AsyncHTTPClientTransport(configuration: configuration)
    /// ```
    public static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// A transport with a client of its own, made with `configuration` (its redirect
    /// configuration is replaced by `.disallow`) on `eventLoopGroup`.
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport(maximumBodySize: 1 << 20)
    /// ```
    public init(
        configuration: HTTPClient.Configuration = AsyncHTTPClientTransport.defaultConfiguration,
        eventLoopGroup: any EventLoopGroup = HTTPClient.defaultEventLoopGroup,
        maximumBodySize: Int = 16 << 20, maximumRedirects: Int = 20
    ) {
        var configuration = configuration
        configuration.redirectConfiguration = .disallow
        client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
        self.maximumBodySize = maximumBodySize
        self.maximumRedirects = maximumRedirects
    }

    /// Shuts the client down; requests still in flight fail.
    ///
    /// ```swift
    /// try await transport.shutdown()
    /// ```
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Makes a task that, once resumed, sends `request` and its redirects as `redirectPolicy`
    /// decides, and reports the last response with its body, or the failure in StreamsNetworking's
    /// terms (``AsyncHTTPClientTransport/networkError(_:request:)``).
    ///
    /// ```swift
    /// let task = transport.makeTask(for: request, redirectPolicy: .default) { print($0) }
    /// task.resume()
    /// ```
    public func makeTask(
        for request: URLRequest, redirectPolicy: RedirectPolicy,
        completion: @escaping @Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void
    ) -> any HTTPTransportTask {
        AsyncHTTPClientTask { [self] in
            let outcome: Result<NetworkResponse<Data>, NetworkError>
            do {
                outcome = .success(try await exchange(request, redirectPolicy: redirectPolicy))
            } catch let error as NetworkError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(Self.networkError(error, request: request))
            }
            completion(outcome)
        }
    }

    /// Sends `request`, then each redirect the policy follows.
    private func exchange(_ request: URLRequest, redirectPolicy: RedirectPolicy) async throws -> NetworkResponse<Data> {
        var current = request
        if current.httpBody == nil, let stream = current.httpBodyStream {
            // Read once, and sent again as bytes after a 307 or 308.
            current.httpBody = try Self.contents(of: stream, limit: maximumBodySize)
        }
        var redirects = 0
        while true {
            let (response, body) = try await send(current)
            guard let location = Self.redirectTarget(of: response) else {
                return NetworkResponse(value: body, response: response, request: SentRequest(request))
            }
            let proposed = Self.following(current, to: location, status: response.statusCode)
            switch redirectPolicy.decision(for: RedirectPolicy.Redirect(response: response, request: proposed)) {
            case .deliverRedirectResponse:
                return NetworkResponse(value: body, response: response, request: SentRequest(request))
            case .refuse(let error):
                throw error
            case .follow(let next):
                redirects += 1
                guard redirects <= maximumRedirects else {
                    throw NetworkError.transport(URLError(.httpTooManyRedirects), request: SentRequest(request))
                }
                current = next
            }
        }
    }

    /// One exchange, with no redirect followed: the response and its body.
    private func send(_ request: URLRequest) async throws -> (HTTPURLResponse, Data) {
        guard let url = request.url else { throw NetworkError.invalidRequest(reason: "the request has no URL") }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            outgoing.headers.add(name: name, value: value)
        }
        if let body = request.httpBody {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(outgoing, deadline: Self.deadline(for: request.timeoutInterval))
        let status = Int(response.status.code)
        var body = Data()
        if status < 400 {
            do {
                let buffer = try await response.body.collect(upTo: maximumBodySize)
                body = Data(buffer.readableBytesView)
            } catch is NIOTooManyBytesError {
                throw NetworkError.transport(URLError(.dataLengthExceedsMaximum), request: SentRequest(request))
            }
        } else {
            body = try await Self.prefix(of: response.body, upTo: ProblemDetails.parsingLimit + 1)
        }
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        let version = "HTTP/\(response.version.major).\(response.version.minor)"
        guard
            let http = HTTPURLResponse(
                url: url, statusCode: Int(response.status.code), httpVersion: version, headerFields: fields)
        else { throw NetworkError.invalidResponse }
        return (http, body)
    }

    /// The longest `timeoutInterval` honoured as a deadline, in seconds (about 31 years); a
    /// longer one, or an infinite one, sets no deadline.
    static let longestTimeout: TimeInterval = 1_000_000_000

    /// The deadline of an exchange whose request has `timeoutInterval`: 60 seconds when it is
    /// zero, negative or not a number (URLSession's default), none when it is infinite or
    /// longer than ``longestTimeout``.
    static func deadline(for timeoutInterval: TimeInterval) -> NIODeadline {
        guard timeoutInterval > 0 else { return .now() + .seconds(60) }
        guard timeoutInterval < longestTimeout else { return .distantFuture }
        return .now() + .nanoseconds(Int64(timeoutInterval * 1_000_000_000))
    }

    /// The bytes of `stream`, a request's `httpBodyStream`, read from its start to its end.
    /// A stream that was opened before (the request was sent once already: a stream is read
    /// only once), that fails, or that holds more than `limit` bytes fails the request with
    /// ``NetworkError/invalidRequest(reason:)``.
    static func contents(of stream: InputStream, limit: Int) throws -> Data {
        guard stream.streamStatus == .notOpen else {
            throw NetworkError.invalidRequest(
                reason: "the request's httpBodyStream was read before; a body stream is sent only once")
        }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = stream.read(&chunk, maxLength: chunk.count)
            if count == 0 { return data }
            guard count > 0 else {
                throw NetworkError.invalidRequest(reason: "the request's httpBodyStream failed to read")
            }
            data.append(contentsOf: chunk[..<count])
            guard data.count <= limit else {
                throw NetworkError.invalidRequest(reason: "the request's httpBodyStream is longer than \(limit) bytes")
            }
        }
    }

    /// The first `limit` bytes of `body`, at most: the rest is not read, and the connection,
    /// in the middle of a response, is closed.
    static func prefix(of body: HTTPClientResponse.Body, upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await buffer in body {
            data.append(contentsOf: buffer.readableBytesView.prefix(limit - data.count))
            if data.count >= limit { break }
        }
        return data
    }

    /// The URL a 301, 302, 303, 307 or 308 response sends the client to, resolved against its
    /// own URL; nil for any other response, or one without a usable `Location`.
    static func redirectTarget(of response: HTTPURLResponse) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url)?.absoluteURL
        else { return nil }
        return target
    }

    /// The request that follows a redirect to `target`, as URLSession proposes it: the same
    /// headers, the new URL, and after a 303 (or a 301 or 302 of a POST) a GET without a body.
    static func following(_ request: URLRequest, to target: URL, status: Int) -> URLRequest {
        var next = request
        next.url = target
        let method = request.httpMethod?.uppercased() ?? "GET"
        if (status == 303 && method != "HEAD") || ([301, 302].contains(status) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        return next
    }
}
