// Plain POSIX sockets through Glibc: these loopback tests run on Linux, where CI runs.
#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc
import StreamsExt
import StreamsTesting

/// A loopback HTTP/1.1 server (127.0.0.1 only) that records every request it reads (method,
/// path and query, headers, body) and answers each with what the test's handler returns, or
/// holds it unanswered until the server stops.
public final class RecordingHTTPServer: Sendable {
    /// One request as the server read it.
    public struct Request: Sendable {
        /// The method, such as `POST`.
        public let method: String
        /// The request target: path and query, as sent.
        public let target: String
        /// The headers, by lower-cased name.
        public let headers: [String: String]
        /// The body, as long as `Content-Length` said.
        public let body: Data
    }

    /// What the server does with a request.
    public enum Reply: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Never answers: the client times out.
        case hold

        /// A response with a body of text.
        public static func status(_ status: Int, _ headers: [String: String] = [:], body: String = "") -> Reply {
            .respond(status: status, headers: headers, body: Data(body.utf8))
        }
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request) -> Reply
    private let received = Locked<[Request]>([])
    /// The connections held open; nil once stopped.
    private let heldOpen = Locked<[Int32]?>([])
    /// The held connections that the client closed.
    private let hangUps = Locked(0)

    /// Starts a server that answers with `handler`: `let server = try RecordingHTTPServer { _ in .status(503) }`.
    public init(_ handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
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
                // Its own thread, not a Dispatch worker: a connection blocks its thread (reading,
                // or held open), and on Linux Swift's tasks run on Dispatch's workers, so a few
                // held connections could stall every test until the client times out.
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    /// The requests read so far, in order.
    public var requests: [Request] { received.withLock { $0 } }

    /// How many connections held open (``Reply/hold``) the client has closed so far: a client
    /// that gives up on a request lets its connection go.
    public var connectionsClosedByClient: Int { hangUps.withLock { $0 } }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting and closes the connections held open; only the first call does anything.
    public func stop() {
        // Shuts the held connections down under the lock, so that none of them is closed (and
        // its number reused) in between: the threads watching them wake and close them.
        let first = heldOpen.withLock { held -> Bool in
            guard let connections = held else { return false }
            for connection in connections { _ = shutdown(connection, Int32(SHUT_RDWR)) }
            held = nil
            return true
        }
        guard first else { return }
        // Wakes the accepting thread, which closes the listener.
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ connection: Int32) {
        guard let request = read(connection) else {
            _ = close(connection)
            return
        }
        received.withLock { $0.append(request) }
        switch handler(request) {
        case .hold:
            let held = heldOpen.withLock { held -> Bool in
                held?.append(connection)
                return held != nil
            }
            if held { watch(connection) }
            _ = close(connection)
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            // A response to HEAD has the headers of a GET's but no body (RFC 9110, 9.3.2); a
            // body there confuses the client.
            send(connection, Array((head + "\r\n").utf8) + (request.method == "HEAD" ? [] : Array(body)))
            _ = close(connection)
        }
    }

    /// Waits until the client closes `connection`, held open, or the server stops (which shuts
    /// it down); counts the client's close.
    private func watch(_ connection: Int32) {
        var byte: UInt8 = 0
        while true {
            let count = recv(connection, &byte, 1, 0)
            if count > 0 { continue }  // more from the client: not a close
            let stopped = heldOpen.withLock { held -> Bool in
                held?.removeAll { $0 == connection }
                return held == nil
            }
            if !stopped { hangUps.withLock { $0 += 1 } }
            return
        }
    }

    /// Reads one request: the head, then as many body bytes as `Content-Length` announces.
    private func read(_ connection: Int32) -> Request? {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        var bodyLength = 0
        while true {
            if headEnd == nil, let end = bytes.firstRange(of: separator)?.upperBound {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headEnd, bytes.count >= headEnd + bodyLength { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
            body: Data(bytes[headEnd..<headEnd + bodyLength]))
    }

    private func send(_ connection: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
#endif
