import Streams

/// A publisher that makes several attempts by itself, and can say what one attempt is: what
/// `recover(through:presenter:)`'s "Try Again" subscribes to, so that a user's retry is one new
/// attempt rather than a new series of automatic ones.
///
/// `retry(_:when:backoff:...)` (`Publishers.SelectiveRetry`) and Combine's `retry(_:)`
/// (`Publishers.Retry`) conform, and `minimumDuration` does when its upstream does. Between
/// such a retry and `recover`, other operators (or `eraseToAnyPublisher()`) hide it: then "Try
/// Again" subscribes to the whole upstream again.
///
/// ```swift
/// let oneTry = request.retry(3, backoff: .immediate, scheduler: queue).singleAttempt   // `request`
/// ```
public protocol AutomaticallyRetrying: Publisher {
    /// One attempt's publisher.
    associatedtype SingleAttempt: Publisher where SingleAttempt.Output == Output, SingleAttempt.Failure == Failure

    /// The publisher of one attempt, without the automatic retries.
    var singleAttempt: SingleAttempt { get }
}

extension Publishers.SelectiveRetry: AutomaticallyRetrying {
    /// The upstream: one attempt, without backoff or retries.
    ///
    /// ```swift
    /// request.retry(3, backoff: .exponential(), scheduler: queue).singleAttempt   // request
    /// ```
    public var singleAttempt: Upstream { upstream }
}

extension Publishers.Retry: AutomaticallyRetrying {
    /// The upstream: one attempt, without retries.
    ///
    /// ```swift
    /// request.retry(3).singleAttempt   // request
    /// ```
    public var singleAttempt: Upstream { upstream }
}

extension Publishers.MinimumDuration: AutomaticallyRetrying where Upstream: AutomaticallyRetrying {
    /// One attempt of the upstream, held to the same minimum duration.
    ///
    /// ```swift
    /// request.retry(3).minimumDuration(.seconds(1), scheduler: queue).singleAttempt   // request.minimumDuration(...)
    /// ```
    public var singleAttempt: Publishers.MinimumDuration<Upstream.SingleAttempt, Context> {
        Publishers.MinimumDuration(upstream: upstream.singleAttempt, duration: duration, scheduler: scheduler, options: options)
    }
}
