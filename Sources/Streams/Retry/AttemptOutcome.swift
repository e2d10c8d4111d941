/// What one attempt ended with: a value or a failure. The selective retry's and
/// StreamsResilience's breaker's `whenOutcome` judge it, so that a value can be handled like an
/// error: a `200 OK` whose body says "error", a GraphQL or JSON-RPC error.
///
/// A handled value is retried as a failure would be (it has no `Retry-After` hint unless the
/// value is itself ``RetryAfterProviding``); when the retry gives up on it, the value is what the
/// caller gets, not an invented error.
///
/// It is an `Error`, so that the retry's reports (``RetryAttempt``, ``RetryReport``) and events
/// can carry it; its description shows a failure as its ``Swift/Error/redactedDescription`` and a
/// value by its type alone. It is `Sendable` without a check, as a stream's values are: an
/// outcome travels with the one stream or call that produced it.
///
/// ```swift
/// let reply = rpc.call("getBalance")
///     .retry(3, whenOutcome: { outcome in
///         switch outcome {
///         case .value(let reply): reply.error?.code == -32603        // JSON-RPC internal error
///         case .failure(let error): error.resolveCategory() == .retryable
///         }
///     }, backoff: .exponential(), scheduler: DispatchQueue.main)
/// ```
public enum AttemptOutcome<Output, Failure: Error>: Error, @unchecked Sendable {
    /// The attempt delivered this value.
    case value(Output)
    /// The attempt failed with this error.
    case failure(Failure)

    /// The failure, or nil for a value.
    ///
    /// ```swift
    /// let error = AttemptOutcome<Int, URLError>.failure(URLError(.timedOut)).error   // URLError(.timedOut)
    /// ```
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The value, or nil for a failure.
    ///
    /// ```swift
    /// let value = AttemptOutcome<Int, URLError>.value(7).value   // 7
    /// ```
    public var value: Output? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The outcome as a `Result`: what the caller gets when the retry gives up on it.
    ///
    /// ```swift
    /// let result = AttemptOutcome<Int, URLError>.value(7).result   // .success(7)
    /// ```
    public var result: Result<Output, Failure> {
        switch self {
        case .value(let value): .success(value)
        case .failure(let error): .failure(error)
        }
    }
}

extension AttemptOutcome: RetryAfterProviding {
    /// The failure's `Retry-After` hint, or the value's when it is ``RetryAfterProviding``.
    ///
    /// ```swift
    /// let hint = AttemptOutcome<Int, URLError>.value(7).retryAfter   // nil
    /// ```
    public var retryAfter: Duration? {
        switch self {
        case .value(let value): ((value as Any) as? any RetryAfterProviding)?.retryAfter
        case .failure(let error): ((error as Any) as? any RetryAfterProviding)?.retryAfter
        }
    }
}

extension AttemptOutcome: ResilienceErrorClassifying {
    /// A failure's kind (a timeout costs a budget more); a value is of no special kind.
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind {
        switch self {
        case .value: .other
        case .failure(let error): ResilienceErrorKind.of(error)
        }
    }

    @usableFromInline
    package var mayHaveReachedServer: Bool {
        switch self {
        case .value: true
        case .failure(let error): ((error as Any) as? any ResilienceErrorClassifying)?.mayHaveReachedServer ?? true
        }
    }
}

extension AttemptOutcome: RedactingError, CustomStringConvertible {
    /// A failure as its ``Swift/Error/redactedDescription``, a value by its type alone (never its
    /// contents).
    ///
    /// ```swift
    /// print(AttemptOutcome<Int, URLError>.value(7))   // value(Int)
    /// ```
    public var description: String {
        switch self {
        case .value(let value): "value(\(type(of: value)))"
        case .failure(let error): "failure(\(error.redactedDescription))"
        }
    }
}
