/// Whom an event is about: the operation (the pipeline's name, a registry's key), the attempt
/// of the call it happened in, and the call's request. Each is nil when unknown: an event of a
/// shared breaker or limiter used outside a pipeline call has no attempt and no request.
///
/// ```swift
/// let events = ResilienceEvents { event, context in
///     logger.info("\(context.operation ?? "-") attempt \(context.attempt ?? 0): \(event)")
/// }
/// ```
public struct ResilienceEventContext: Sendable, Hashable, CustomStringConvertible {
    /// The pipeline's name (a ``ResilienceRegistry`` names each pipeline by its key).
    public var operation: String?
    /// The retry's attempt number the event happened in: 1 for the first.
    public var attempt: Int?
    /// The call's request: its method and origin.
    public var request: ResilienceRequestIdentity?

    /// Makes a context.
    ///
    /// ```swift
    /// let context = ResilienceEventContext(operation: "payments", attempt: 2)
    /// ```
    public init(operation: String? = nil, attempt: Int? = nil, request: ResilienceRequestIdentity? = nil) {
        self.operation = operation
        self.attempt = attempt
        self.request = request
    }

    /// `payments attempt 2 POST https://pay.example.com:443`, the parts that are known.
    ///
    /// ```swift
    /// print(ResilienceEventContext(operation: "payments", attempt: 2))   // payments attempt 2
    /// ```
    public var description: String {
        var parts: [String] = []
        if let operation { parts.append(operation) }
        if let attempt { parts.append("attempt \(attempt)") }
        if let request { parts.append("\(request)") }
        return parts.joined(separator: " ")
    }
}
