import Synchronization

/// What a catalogue server received, for a test or the demo to check: one line per request to
/// `/account`, `/auth/token` and `/crash`, such as `GET /account Bearer token-1`.
///
/// ```swift
/// let traffic = CatalogTraffic()
/// let server = try await RunningCatalogServer.start(traffic: traffic)
/// // … requests …
/// traffic.count("POST /auth/token")   // refreshes the server answered
/// ```
public final class CatalogTraffic: Sendable {
    private let lines = Mutex<[String]>([])

    /// An empty record.
    ///
    /// ```swift
    /// let traffic = CatalogTraffic()
    /// ```
    public init() {}

    /// The lines so far, in the order the requests arrived.
    ///
    /// ```swift
    /// print(traffic.requests.joined(separator: "\n"))
    /// ```
    public var requests: [String] { lines.withLock { $0 } }

    /// How many requests were recorded as `line`.
    ///
    /// ```swift
    /// traffic.count("GET /account Bearer expired-token")
    /// ```
    public func count(_ line: String) -> Int {
        lines.withLock { $0.filter { $0 == line }.count }
    }

    /// Records a request.
    func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}
