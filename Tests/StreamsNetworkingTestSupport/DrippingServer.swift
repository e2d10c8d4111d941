// Plain POSIX sockets through Glibc: these loopback tests run on Linux, where CI runs.
#if canImport(Glibc)
import Foundation
import Glibc
import Synchronization

/// A loopback HTTP server (127.0.0.1 only) that answers every request with a response head
/// announcing a long body, then drips that body one byte every 100 ms (by default), and counts
/// the connections the client closes: a request given up on must show here as a connection
/// closed, not as one still streaming.
///
/// ```swift
/// let server = try DrippingServer()
/// defer { server.stop() }
/// // … start a request to server.url(), give it up …
/// let closed = server.closedByClient == 1
/// ```
public final class DrippingServer: CustomStringConvertible, Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// How long it waits, after reading a request, before it sends the response head.
    public let headDelay: Duration
    /// The length of each body, sent a byte at a time; the connection is closed after it.
    public let bodyLength: Int
    /// The time between two bytes of a body.
    public let interval: Duration
    /// The first connection (counted from 1) answered at once with a 2-byte body instead.
    public let answersAtOnceFrom: Int
    private let listener: Int32
    private let accepted = Atomic(0)
    private let heads = Atomic(0)
    private let dripped = Atomic(0)
    private let closed = Atomic(0)
    private let stopped = Atomic(false)

    /// Starts a server that sends each response head `headDelay` after the request arrived,
    /// then a body of `bodyLength` bytes, one every `interval`; from connection
    /// `answersAtOnceFrom` on (a hedge's second attempt, say), it answers at once instead.
    public init(
        headDelay: Duration = .zero, bodyLength: Int = 1_000_000, interval: Duration = .milliseconds(100),
        answersAtOnceFrom: Int = .max
    ) throws {
        self.headDelay = headDelay
        self.bodyLength = bodyLength
        self.interval = interval
        self.answersAtOnceFrom = answersAtOnceFrom
        (listener, port) = try MisbehavingServer.bind(listening: true)
        MisbehavingServer.acceptConnections(on: listener, counting: { [self] in accepted.add(1, ordering: .relaxed).newValue }) {
            [self] connection, number in serve(connection, number: number)
        }
    }

    /// The connections accepted so far.
    public var connections: Int { accepted.load(ordering: .relaxed) }
    /// The response heads sent so far.
    public var headsSent: Int { heads.load(ordering: .relaxed) }
    /// The body bytes sent so far, over every connection.
    public var bytesDripped: Int { dripped.load(ordering: .relaxed) }
    /// The connections the client closed while the server was still sending.
    public var closedByClient: Int { closed.load(ordering: .relaxed) }

    /// What it counted, for a test's failure message.
    public var description: String {
        "connections: \(connections), heads sent: \(headsSent), bytes dripped: \(bytesDripped), "
            + "closed by the client: \(closedByClient)"
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(path: String = "/drip") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting; each connection still open is closed within 100 ms (not counted as
    /// closed by the client). Only the first call does anything.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        // Wakes the accepting thread, which closes the listener.
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ connection: Int32, number: Int) {
        defer { _ = close(connection) }
        guard readRequestHead(connection) else { return }
        if number >= answersAtOnceFrom {
            let answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            _ = send(connection, Array(answer.utf8))
            return
        }
        if headDelay > .zero {
            guard waitWhileOpen(connection, for: headDelay) else { return }
        }
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(bodyLength)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard send(connection, Array(head.utf8)) else { return }
        heads.add(1, ordering: .relaxed)
        for sent in 0..<bodyLength {
            guard !stopped.load(ordering: .relaxed), send(connection, [UInt8(ascii: "x")]) else { return }
            dripped.add(1, ordering: .relaxed)
            guard sent == bodyLength - 1 || waitWhileOpen(connection, for: interval) else { return }
        }
    }

    /// Waits `duration`, or less if the client closes the connection (counted) or the server
    /// stops; true if the connection is still open and the server running.
    private func waitWhileOpen(_ connection: Int32, for duration: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        while !stopped.load(ordering: .relaxed) {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return true }
            var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left, .milliseconds(20)).components.attoseconds / 1_000_000_000_000_000) + 1
            guard poll(&descriptor, 1, milliseconds) >= 0 else { return countClosed() }
            if descriptor.revents != 0 {
                // The client sends nothing after its request: readable (or hung up) means closed.
                var byte: UInt8 = 0
                if recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0 { return countClosed() }
            }
        }
        return false
    }

    private func countClosed() -> Bool {
        if !stopped.load(ordering: .relaxed) { closed.add(1, ordering: .relaxed) }
        return false
    }

    /// Reads until the blank line that ends a request head; false if the client closed first.
    private func readRequestHead(_ connection: Int32) -> Bool {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while received.count < 65_536 {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer[..<count]
            if received.count >= 4, Array(received.suffix(4)) == [13, 10, 13, 10] { return true }
        }
        return true
    }

    /// Sends `bytes`; false, counting the connection as closed by the client, if it is gone.
    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        let sent = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return sent == bytes.count ? true : countClosed()
    }
}
#endif
