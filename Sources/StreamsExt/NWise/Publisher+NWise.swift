import Streams

extension Publisher {
    /// Sends, from the `size`-th value on, the last `size` values as an array, oldest first: a
    /// window that slides by one value each time.
    ///
    /// The first `size - 1` values only fill the window; each asks upstream for one more, so
    /// the downstream's demand counts windows. The stream completes when the upstream does
    /// (a window not yet full is dropped). `size` must be at least 1. Returns the type-erased
    /// publisher CombineExt declares.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4].publisher.nwise(3).sink { print($0) }
    /// // [1, 2, 3], [2, 3, 4]
    /// ```
    @inlinable
    public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
        precondition(size > 0, "nwise needs a window of at least one value, not \(size)")
        return NWisePublisher(upstream: self, size: size).eraseToAnyPublisher()
    }
}

/// The publisher behind `nwise(_:)` and `pairwise()`, erased to `AnyPublisher` as CombineExt
/// declares them.
@usableFromInline
struct NWisePublisher<Upstream: Publisher>: Publisher {
    @usableFromInline
    typealias Output = [Upstream.Output]
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let upstream: Upstream
    @usableFromInline
    let size: Int

    @inlinable
    init(upstream: Upstream, size: Int) {
        self.upstream = upstream
        self.size = size
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: NWiseSubscription<Upstream.Output, S>(downstream: subscriber, size: size))
    }
}
