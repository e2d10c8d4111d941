/// A publisher that makes a new publisher for each subscriber, when it subscribes.
///
/// Wrap work that should not start until someone listens, or that must start afresh for each
/// subscriber (so that `retry` repeats it).
///
/// ```swift
/// let fresh = Deferred { Just(Date()) }   // each subscriber gets its own time
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The made publisher's values.
    public typealias Output = DeferredPublisher.Output
    /// The made publisher's failure.
    public typealias Failure = DeferredPublisher.Failure

    /// Makes the publisher for one subscriber.
    public let createPublisher: () -> DeferredPublisher

    /// Makes a publisher that calls `createPublisher` for each subscriber.
    ///
    /// ```swift
    /// let request = Deferred { Future<Int, Never> { promise in promise(.success(42)) } }
    /// ```
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Makes a new publisher and attaches `subscriber` to it.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}
