import Streams

extension RateLimiter {
    /// How a ``RateLimiter`` counts its permits.
    ///
    /// | algorithm | admits | matches |
    /// | --- | --- | --- |
    /// | `tokenBucket` | `permits` per `period` on average, bursts of up to `burst` | a steady rate (Polly's and .NET's token bucket) |
    /// | `fixedWindow` | `permits` in each window of `period`, the windows following one another from the first call | "N per minute" quotas that reset on the minute (resilience4j's limiter, .NET's fixed window) |
    /// | `slidingWindow` | never more than `permits` in any span of `period` | quotas counted over the last minute, whenever it is measured (.NET's sliding window, exact) |
    ///
    /// ```swift
    /// let quota = RateLimiter(permits: 100, per: .seconds(60), algorithm: .slidingWindow)
    /// ```
    public enum Algorithm: Sendable, Hashable {
        /// A token bucket: permits are earned continuously, one every `period / permits`, up to
        /// `burst` in hand. The default.
        case tokenBucket
        /// A fixed window: `permits` in each window of `period`; a window's unused permits are
        /// lost. Up to twice `permits` can pass within one `period` that straddles two windows.
        case fixedWindow
        /// A sliding window: never more than `permits` in any span of `period`, counted exactly
        /// from the instants of the admissions.
        case slidingWindow
    }
}
