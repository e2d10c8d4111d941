extension Publisher {
    /// Keeps up to `size` values that arrive while the downstream has no demand, and sends them
    /// as it asks.
    ///
    /// As in Combine, upstream is asked as soon as it subscribes, before the downstream asks:
    /// with `.keepFull` for `size` values, then again for as many as have left the buffer; with
    /// `.byRequest` for unlimited values. A value that finds the buffer full is handled by
    /// `whenFull`: dropped (`.dropNewest`), or makes room by dropping the oldest (`.dropOldest`),
    /// or fails the stream (`.customError`: the upstream is cancelled, and the failure waits for
    /// the downstream's next request, which gets up to its demand of buffered values, then the
    /// failure; the values left are discarded). `.finished` waits until the buffer is empty and
    /// the downstream has demand; an upstream failure goes out once the downstream has no demand
    /// left or the buffer is empty. `size` may be 0 (every value overflows).
    ///
    /// ```swift
    /// let smoothed = sensor.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    @inlinable
    public func buffer(
        size: Int,
        prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// When a ``Buffer`` asks its upstream for values.
    ///
    /// ```swift
    /// let prefetch = Publishers.PrefetchStrategy.keepFull
    /// ```
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks for enough values to keep the buffer full.
        case keepFull
        /// Asks for unlimited values once the downstream first asks.
        case byRequest
    }

    /// What a ``Buffer`` does with a value that finds it full.
    ///
    /// ```swift
    /// let whenFull = Publishers.BufferingStrategy<Never>.dropOldest
    /// ```
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the new value.
        case dropNewest
        /// Drops the oldest buffered value to make room.
        case dropOldest
        /// Cancels the upstream and fails the stream with the error the closure makes: at the
        /// downstream's next request, after the buffered values that request takes.
        case customError(() -> Failure)
    }

    /// A publisher that buffers its upstream's values until the downstream asks for them.
    ///
    /// ```swift
    /// let smoothed = Publishers.Buffer(upstream: sensor, size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream
        /// The most values kept.
        public let size: Int
        /// When upstream is asked for values.
        public let prefetch: PrefetchStrategy
        /// What happens to a value that finds the buffer full.
        public let whenFull: BufferingStrategy<Upstream.Failure>

        /// Makes a buffer of `size` values in front of `upstream`.
        ///
        /// ```swift
        /// let smoothed = Publishers.Buffer(upstream: sensor, size: 100, prefetch: .byRequest, whenFull: .dropNewest)
        /// ```
        @inlinable
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: BufferSubscription(downstream: subscriber, buffer: self))
        }
    }
}
