import Streams

/// What a server announced about its quota in one response: how many calls its window allows,
/// how many remain, and when the window resets (the `RateLimit-Limit`, `RateLimit-Remaining` and
/// `RateLimit-Reset` headers, or their `X-RateLimit-` forms, as StreamsNetworking reads them).
///
/// A ``PushbackLimiter`` told each response's quota keeps its calls within it, so that the
/// client slows down before the server refuses it. Any field may be missing.
///
/// ```swift
/// let quota = ServerQuota(limit: 100, remaining: 3, reset: .seconds(20))
/// pipeline.report(quota, at: DispatchQueue.main.now)
/// ```
public struct ServerQuota: Sendable, Hashable, CustomStringConvertible {
    /// The calls the server's window allows; nil when not announced.
    public var limit: Int?
    /// The calls left in the current window, this one counted; nil when not announced.
    public var remaining: Int?
    /// How long until the window resets, from when the response was read; nil when not announced.
    public var reset: Duration?

    /// Describes an announced quota.
    ///
    /// ```swift
    /// let spent = ServerQuota(remaining: 0, reset: .seconds(30))
    /// ```
    public init(limit: Int? = nil, remaining: Int? = nil, reset: Duration? = nil) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
    }

    /// Whether the server announced anything at all.
    ///
    /// ```swift
    /// ServerQuota().isEmpty   // true
    /// ```
    public var isEmpty: Bool { limit == nil && remaining == nil && reset == nil }

    /// `remaining 3 of 100, reset in 20 seconds`, leaving out what is unknown.
    public var description: String {
        var parts: [String] = []
        if let remaining { parts.append("remaining \(remaining)" + (limit.map { " of \($0)" } ?? "")) }
        if remaining == nil, let limit { parts.append("limit \(limit)") }
        if let reset { parts.append("reset in \(reset)") }
        return parts.isEmpty ? "no quota" : parts.joined(separator: ", ")
    }
}
