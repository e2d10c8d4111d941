// Plain POSIX sockets through Glibc: these loopback tests run on Linux, where CI runs.
#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc
import StreamsExt
import StreamsTesting

/// A loopback HTTP/1.1 server (127.0.0.1 only) that answers each request with what its handler
/// says and records every request it was sent, headers and all: what the request publisher
/// really puts on the wire, redirects included.
///
/// The same server is two origins: `http://127.0.0.1:PORT` and `http://localhost:PORT`.
public final class LoopbackHTTPServer: Sendable {
    /// A request as it arrived.
    public struct Request: Sendable {
        /// The method, such as `GET`.
        public let method: String
        /// The path and query, as sent.
        public let target: String
        /// The `Host` header: which of the server's names the client used.
        public let host: String
        /// The headers, in the order sent.
        public let headers: [(name: String, value: String)]
        /// The body, as long as `Content-Length` said.
        public let body: Data

        /// The value of the header `name`, in any case, or nil.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The path without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }
    }

    /// An answer.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The headers to send besides `Content-Length`.
        public var headers: [String: String] = [:]
        /// The body.
        public var body = ""

        /// An answer with `status`, `headers` and a body of text.
        public init(status: Int, headers: [String: String] = [:], body: String = "") {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A 200 with a JSON body: `.ok(#"{"id":1}"#)`.
        public static func ok(_ body: String = #"{"ok":true}"#) -> Response {
            Response(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }

        /// A redirect (302 unless said) to `location`: `.redirect(307, to: "http://localhost:8080/b")`.
        public static func redirect(_ status: Int = 302, to location: String) -> Response {
            Response(status: status, headers: ["Location": location], body: "moved")
        }
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let received = Locked<[Request]>([])
    private let stopped = Locked(false)

    /// Starts a server that answers with `handler`: `let server = try LoopbackHTTPServer { _ in .ok() }`.
    public init(_ handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            _ = close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else {
                    // Stopped: the listener is closed here, by the only thread that uses it, so
                    // that its descriptor number is not reused (by another test's server) while
                    // this loop could still accept on it.
                    _ = close(descriptor)
                    return
                }
                // A thread per connection, so that no handler waits for a worker of the global
                // queue that a test keeps busy.
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    /// `http://HOST:PORT/path`, HOST being `127.0.0.1` or `localhost`.
    public func url(_ path: String, host: String = "127.0.0.1") -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    /// The requests received so far, in order of arrival.
    public var requests: [Request] { received.withLock { $0 } }

    /// Stops accepting connections; only the first call does anything (a second shutdown could
    /// reach a descriptor the process has reused since).
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Wakes the accepting thread, which closes the listener.
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ connection: Int32) {
        defer { _ = close(connection) }
        guard let request = Self.read(connection) else { return }
        received.withLock { $0.append(request) }
        let response = handler(request)
        let reasons = [
            200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
            308: "Permanent Redirect", 401: "Unauthorized", 500: "Internal Server Error",
        ]
        var head = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Status")\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.utf8.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array((head + response.body).utf8)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one request: the head, then as many body bytes as `Content-Length` says.
    private static func read(_ connection: Int32) -> Request? {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var headEnd: Int?
        var bodyLength = 0
        var head: [String] = []
        while received.count < 1_048_576 {
            if let end = headEnd, received.count >= end + bodyLength { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
            if headEnd == nil, let end = Self.endOfHead(received) {
                headEnd = end
                head = String(decoding: received[..<(end - 4)], as: UTF8.self).components(separatedBy: "\r\n")
                let length = head.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
                bodyLength = Int(length?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            }
        }
        guard let end = headEnd, let requestLine = head.first else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        let headers = head.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let host = headers.first { $0.name.lowercased() == "host" }?.value ?? ""
        let body = Data(received[end..<min(received.count, end + bodyLength)])
        return Request(method: String(parts[0]), target: String(parts[1]), host: host, headers: headers, body: body)
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }
}
#endif
