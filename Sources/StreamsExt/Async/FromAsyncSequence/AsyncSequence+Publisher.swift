import Streams

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements that pulls only what its subscriber requests:
    /// see `Publishers.FromAsyncSequence`. The other way round from `values`.
    ///
    /// ```swift
    /// let stream = AsyncStream<Int> { continuation in
    ///     continuation.yield(1)
    ///     continuation.finish()
    /// }
    /// let cancellable = stream.publisher.sink { print($0) }   // Failure == Never
    /// ```
    @inlinable
    public var publisher: Publishers.FromAsyncSequence<Self> {
        Publishers.FromAsyncSequence(self)
    }
}
