import Streams

/// The failure of a stream guarded by a resilience operator: the upstream's own failure, or the
/// error of the strategy that stopped the attempt.
///
/// Stacking resilience operators keeps one flat error type: an operator applied to a publisher
/// whose failure is already a `ResilienceError<Failure>` keeps that type. The error forwards its
/// `ErrorCategory` and its `Retry-After` hint, so that the selective retry decides on the
/// strategy's errors as it does on the upstream's: it retries a timed-out attempt and an open
/// circuit (waiting at least until the circuit lets calls through again), and it gives up at once
/// on a passed deadline.
///
/// Its description and mirror show the upstream's error as its `Swift.Error.redactedDescription`:
/// as it describes itself if it is a `RedactingError`, otherwise by its type, domain and code
/// alone, so that printing a `ResilienceError<URLError>` shows no failing URL.
///
/// ```swift
/// let user = api.user(id)                                        // Failure == APIError
///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)  // ResilienceError<APIError>
///     .circuitBreaker(breaker, scheduler: DispatchQueue.main)       // still ResilienceError<APIError>
///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
/// ```
public enum ResilienceError<Failure: Error>: Error, CategorizedError, RetryAfterProviding, RedactingError {
    /// The upstream failed with its own error.
    case upstream(Failure)
    /// A circuit breaker refused the call: it is open, isolated, or busy probing.
    case circuitOpen(CircuitOpenError)
    /// One attempt ran longer than its timeout.
    case attemptTimedOut(AttemptTimeoutError)
    /// The deadline across all attempts passed.
    case deadlineExceeded(DeadlineExceededError)
    /// A concurrency or rate limiter refused the call.
    case limiterRejected(LimiterRejectedError)

    /// The category of the wrapped error: the upstream's own, or the strategy's (an open circuit,
    /// a timed-out attempt and a limiter's rejection are retryable; a passed deadline, an
    /// isolated circuit and a timed-out attempt of a call that is not safe to repeat are not).
    ///
    /// ```swift
    /// ResilienceError<APIError>.attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1))).category   // .retryable
    /// ```
    public var category: ErrorCategory {
        switch self {
        case .upstream(let error): error.resolveCategory()
        case .circuitOpen(let error): error.category
        case .attemptTimedOut(let error): error.category
        case .deadlineExceeded(let error): error.category
        case .limiterRejected(let error): error.category
        }
    }

    /// The hint of the wrapped error: the upstream's own (when it is `RetryAfterProviding`), or
    /// the strategy's (an open circuit's time left, a rate limiter's wait).
    ///
    /// ```swift
    /// if let wait = error.retryAfter { print("try again in \(wait)") }
    /// ```
    public var retryAfter: Duration? {
        switch self {
        case .upstream(let error): ((error as Any) as? any RetryAfterProviding)?.retryAfter
        case .circuitOpen(let error): error.retryAfter
        case .attemptTimedOut: nil
        case .deadlineExceeded: nil
        case .limiterRejected(let error): error.retryAfter
        }
    }

    /// The upstream's own failure, or nil when a strategy stopped the attempt.
    ///
    /// ```swift
    /// if let apiError = error.upstreamFailure { show(apiError) }
    /// ```
    public var upstreamFailure: Failure? {
        if case .upstream(let error) = self { return error }
        return nil
    }
}

extension ResilienceError: CustomStringConvertible, CustomReflectable {
    /// The case and the error it wraps, the upstream's as its `Swift.Error.redactedDescription`.
    ///
    /// ```swift
    /// print(ResilienceError<URLError>.upstream(URLError(.timedOut)))
    /// // upstream(URLError(domain: NSURLErrorDomain, code: -1001))
    /// ```
    public var description: String {
        let (name, error) = reflected
        return "\(name)(\(error))"
    }

    /// The case and the error it wraps, for `dump`: the upstream's error is reflected as its
    /// `Swift.Error.redactedDescription`, never as itself.
    ///
    /// ```swift
    /// dump(ResilienceError<URLError>.upstream(URLError(.timedOut)))
    /// // ▿ upstream(URLError(domain: NSURLErrorDomain, code: -1001))
    /// //   - upstream: "URLError(domain: NSURLErrorDomain, code: -1001)"
    /// ```
    public var customMirror: Mirror {
        let (name, error) = reflected
        return Mirror(self, children: [(label: name, value: error)], displayStyle: .enum)
    }

    /// The case's name and what is shown of its error: the strategies' errors as they are (they
    /// hold nothing secret), the upstream's redacted.
    private var reflected: (name: String, error: Any) {
        switch self {
        case .upstream(let error): ("upstream", error.redactedDescription)
        case .circuitOpen(let error): ("circuitOpen", error)
        case .attemptTimedOut(let error): ("attemptTimedOut", error)
        case .deadlineExceeded(let error): ("deadlineExceeded", error)
        case .limiterRejected(let error): ("limiterRejected", error)
        }
    }
}

extension ResilienceError: Equatable where Failure: Equatable {}
extension ResilienceError: Hashable where Failure: Hashable {}

extension ResilienceError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind {
        switch self {
        case .upstream(let error): ResilienceErrorKind.of(error)
        case .circuitOpen: .circuitOpen
        case .attemptTimedOut: .timeout
        case .deadlineExceeded: .deadline
        case .limiterRejected: .other
        }
    }

    @usableFromInline
    package var mayHaveReachedServer: Bool {
        switch self {
        case .upstream(let error): ((error as Any) as? any ResilienceErrorClassifying)?.mayHaveReachedServer ?? true
        case .attemptTimedOut(let error): error.mayHaveReachedServer
        case .deadlineExceeded: true
        case .circuitOpen, .limiterRejected: false
        }
    }
}
