// Plain POSIX sockets through Glibc: these loopback tests run on Linux, where CI runs.
#if canImport(Glibc)
import Dispatch
import Foundation
import Glibc
import StreamsExt
import StreamsTesting
import Synchronization

/// A loopback TCP server (127.0.0.1 only) that fails the way real servers and networks do, so
/// that the request publisher meets the transport errors the platform really reports.
public final class MisbehavingServer: Sendable {
    /// What the server does with each connection once it has read the request.
    public enum Behaviour: Sendable {
        /// Closes the connection without a reply.
        case closeWithoutReply
        /// Sends the head and half of the announced body, then closes.
        case closeMidBody
        /// Keeps the connection open and never answers.
        case neverAnswer
        /// Resets the connection (an RST, with `SO_LINGER` zero).
        case reset
        /// Answers in plain HTTP at once, whatever it was sent: a TLS client meets no TLS.
        case plainHTTP
        /// Reads the request and answers it properly: a 200 with a small JSON body.
        case answer
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private let accepted = Atomic(0)
    /// The connections held open; nil once stopped.
    private let heldOpen = Locked<[Int32]?>([])

    /// Starts a server that behaves as `behaviour`: `let server = try MisbehavingServer(.reset)`.
    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        (listener, port) = try Self.bind(listening: true)
        Self.acceptConnections(on: listener, counting: { [self] in accepted.add(1, ordering: .relaxed).newValue }) {
            [self] connection, _ in handle(connection)
        }
    }

    /// Accepts connections on `listener` on a thread of its own until the listener is shut down,
    /// counts each with `count` (which returns its number) as it is accepted, and serves it on a
    /// thread of its own with `serve`, given that number. A thread, not a Dispatch worker: a test
    /// that waits on a worker for the server to take the request must not be what keeps the
    /// server from it.
    static func acceptConnections(
        on listener: Int32, counting count: @escaping @Sendable () -> Int,
        _ serve: @escaping @Sendable (Int32, Int) -> Void
    ) {
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else {
                    // Stopped: the listener is closed here, by the only thread that uses it, so
                    // that its descriptor number is not reused (by another test's server) while
                    // this loop could still accept on it.
                    _ = close(listener)
                    return
                }
                let number = count()
                Thread.detachNewThread { serve(connection, number) }
            }
        }
    }

    /// The connections accepted so far.
    public var connections: Int { accepted.load(ordering: .relaxed) }

    /// `http://127.0.0.1:PORT/path` (or `https`).
    public func url(_ scheme: String = "http", path: String = "/isUserNameAvailable?userName=alice") -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting and closes the connections held open; only the first call does anything
    /// (a second close could close a descriptor the process has reused since).
    public func stop() {
        let held = heldOpen.withLock { held -> [Int32]? in
            guard let connections = held else { return nil }
            held = nil
            return connections
        }
        guard let held else { return }
        // Wakes the accepting thread, which closes the listener.
        _ = shutdown(listener, Int32(SHUT_RDWR))
        for connection in held { _ = close(connection) }
    }

    /// A loopback port nothing listens on: bound and never listened on, so a connection to it
    /// is refused. The socket stays bound for the life of the process: closed, its port could
    /// be given to another test's server before the connection is tried.
    public static func closedPort() throws -> Int {
        let (descriptor, port) = try bind(listening: false)
        refusingSockets.withLock { $0.append(descriptor) }
        return port
    }

    /// The sockets behind ``closedPort()``, kept bound.
    private static let refusingSockets = Locked<[Int32]>([])

    static func bind(listening: Bool) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, !listening || listen(descriptor, 128) == 0 else {
            _ = close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    private func handle(_ connection: Int32) {
        if behaviour == .plainHTTP {
            var buffer = [UInt8](repeating: 0, count: 4_096)
            _ = recv(connection, &buffer, buffer.count, 0)  // whatever arrives first
            send(connection, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
            _ = close(connection)
            return
        }
        readRequestHead(connection)
        switch behaviour {
        case .answer:
            send(
                connection,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\nConnection: close\r\n\r\n"
                    + "{\"isAvailable\":true}")
            _ = close(connection)
        case .closeWithoutReply, .plainHTTP:
            _ = close(connection)
        case .closeMidBody:
            send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"isAvailable\":")
            _ = close(connection)
        case .neverAnswer:
            // Held until the server stops; closed at once if it already has.
            let held = heldOpen.withLock { held -> Bool in
                held?.append(connection)
                return held != nil
            }
            if !held { _ = close(connection) }
        case .reset:
            var linger = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            _ = close(connection)
        }
    }

    /// Reads until the blank line that ends a request head, or until the peer stops sending.
    private func readRequestHead(_ connection: Int32) {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while received.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received += buffer[..<count]
            if received.count >= 4, Array(received.suffix(4)) == [13, 10, 13, 10] { return }
        }
    }

    private func send(_ connection: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
#endif
