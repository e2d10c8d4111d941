import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A second, independent implementation of the sign-up protocol: plain POSIX sockets and a
/// hand-written HTTP/1.1 exchange (one request per connection), sharing no code with the
/// Hummingbird server. It speaks the protocol's other dialect: `Retry-After` as an HTTP-date,
/// and a `Date` header from a clock three hours and seven minutes ahead of the client's, so a
/// client that measured the date against its own clock would see a hint of hours.
final class IndependentSignUpServer: Sendable {
    /// How far this server's clock runs ahead of the client's.
    static let clockSkew: TimeInterval = 3 * 3_600 + 7 * 60
    /// The `Retry-After` during maintenance, in seconds after the `Date` header.
    static let maintenanceWait: TimeInterval = 2

    let port: Int
    private let listener: Int32
    private let maintenanceCount = Mutex(0)

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 32) == 0 else {
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
                guard connection >= 0 else { return }  // stopped
                // Its own thread, not a Dispatch worker: a connection blocks its thread (reading,
                // or held open), and on Linux Swift's tasks run on Dispatch's workers, so a few
                // held connections could stall every test until the client times out.
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops accepting connections.
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
    }

    private func serve(_ connection: Int32) {
        defer { _ = close(connection) }
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 2_048)
        while request.count < 65_536, !request.ends(with: [13, 10, 13, 10]) {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            request += chunk[..<count]
        }
        let requestLine = String(decoding: request, as: UTF8.self).prefix { $0 != "\r" }
        let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let (status, headers, body) = respond(to: target)
        var head = "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        let bytes = Array((head + body).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// The protocol's rules, written out afresh.
    private func respond(to target: String) -> (status: String, headers: [(String, String)], body: String) {
        let now = Date().addingTimeInterval(Self.clockSkew).timeIntervalSince1970.rounded(.down)
        let dated = [("Date", Self.httpDate(now))]
        guard let components = URLComponents(string: target), components.path == "/isUserNameAvailable" else {
            return ("404 Not Found", dated, #"{"error": true, "reason": "notFound"}"#)
        }
        let name = components.queryItems?.first { $0.name == "userName" }?.value ?? ""
        func rejected(_ reason: String) -> (String, [(String, String)], String) {
            ("400 Bad Request", dated, #"{"error": true, "reason": "\#(reason)"}"#)
        }
        func availability(_ free: Bool) -> (String, [(String, String)], String) {
            ("200 OK", dated, #"{"isAvailable": \#(free)}"#)
        }
        switch name {
        case "": return rejected("emptyName")
        case _ where name.unicodeScalars.count < 4: return rejected("tooShort")
        case "admin", "superuser": return rejected("illegalName")
        case "johndoe", "page", "peterfriese", "johnnyappleseed": return availability(false)
        case "illegalresponse": return ("200 OK", dated, #"{"name": "illegalresponse", "free": true}"#)
        case "servererror": return ("500 Internal Server Error", dated, #"{"error": true, "reason": "databaseDown"}"#)
        case "maintenance":
            let third = maintenanceCount.withLock { count -> Bool in
                count = (count + 1) % 3
                return count == 0
            }
            if third { return availability(true) }
            return (
                "500 Internal Server Error", dated + [("Retry-After", Self.httpDate(now + Self.maintenanceWait))],
                #"{"error": true, "reason": "maintenance"}"#
            )
        default: return availability(true)
        }
    }

    /// An IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ secondsSince1970: TimeInterval) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date(timeIntervalSince1970: secondsSince1970))
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
