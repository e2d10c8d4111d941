/// What a ``CircuitBreaker`` has seen, at one instant: its state and since when, and the calls
/// and failures in its window.
///
/// ```swift
/// let metrics = breaker.metrics(at: DispatchQueue.main.now)
/// gauge("breaker.failure_rate").record(metrics.failureRate)
/// ```
public struct CircuitBreakerMetrics: Sendable, Hashable {
    /// The state.
    public let state: CircuitState
    /// When the state began, on the ``TimelineInstant`` time line (compare with
    /// `now.timelineOffset`); nil when the breaker has not changed state since it was made, or
    /// was last changed by hand (``CircuitBreaker/isolate()``, ``CircuitBreaker/reset()``).
    public let since: Duration?
    /// The calls in the window (slow calls among them).
    public let calls: Int
    /// The calls in the window that counted as failures, slow calls over the threshold among
    /// them unless the breaker counts them apart (`slowCallRatio`).
    public let failures: Int
    /// The slow calls in the window, when the breaker counts them apart from failures
    /// (`slowCallRatio` set); zero otherwise.
    public let slowCalls: Int

    /// Describes a breaker's metrics.
    ///
    /// ```swift
    /// let metrics = CircuitBreakerMetrics(state: .closed, since: nil, calls: 20, failures: 3)
    /// ```
    public init(state: CircuitState, since: Duration?, calls: Int, failures: Int, slowCalls: Int = 0) {
        self.state = state
        self.since = since
        self.calls = calls
        self.failures = failures
        self.slowCalls = slowCalls
    }

    /// The share of the window's calls that failed, from 0 to 1; 0 with no call.
    ///
    /// ```swift
    /// CircuitBreakerMetrics(state: .closed, since: nil, calls: 20, failures: 5).failureRate   // 0.25
    /// ```
    public var failureRate: Double {
        calls == 0 ? 0 : Double(failures) / Double(calls)
    }

    /// The share of the window's calls that were slow (0 with no calls), when the breaker counts
    /// slow calls apart: what its `slowCallRatio` is compared with.
    ///
    /// ```swift
    /// CircuitBreakerMetrics(state: .closed, since: nil, calls: 4, failures: 0, slowCalls: 2).slowCallRate   // 0.5
    /// ```
    public var slowCallRate: Double {
        calls == 0 ? 0 : Double(slowCalls) / Double(calls)
    }
}
