import Streams

extension CircuitBreaker {
    /// Which calls a ``CircuitBreaker`` samples to compute its failure ratio.
    ///
    /// ```swift
    /// let byCount = CircuitBreaker.Configuration(window: .count(50))
    /// let byTime = CircuitBreaker.Configuration(window: .time(.seconds(10)))
    /// ```
    public enum Window: Sendable, Hashable {
        /// The last `calls` calls, as resilience4j's count-based sliding window.
        case count(Int)
        /// The calls that ended within the last `duration`, as Polly's sampling duration and
        /// resilience4j's time-based window: it is kept in ten buckets of a tenth of the
        /// duration each, and a bucket leaves the window as a whole.
        case time(Duration)
    }
}
