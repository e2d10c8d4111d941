extension Publisher where Failure == Never {
    /// The publisher's values as an async sequence: each step of the loop asks for one value.
    ///
    /// Leaving the loop, or cancelling the task, cancels the subscription.
    ///
    /// ```swift
    /// for await name in userName.values {
    ///     print("name:", name)
    /// }
    /// ```
    @inlinable
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

/// A publisher that never fails, seen as an `AsyncSequence`.
///
/// Each iterator subscribes once and requests one value per `next()`, so the publisher never
/// runs ahead of the loop; values a publisher sends without being asked (a subject with no
/// waiting `next()`) are not kept.
///
/// Copies of an iterator share its subscription, and several tasks may call `next()` at once:
/// each call waits for a value of its own, in the order the calls were made. The completion, or
/// cancelling any of the waiting tasks, makes every waiting call return nil.
///
/// ```swift
/// for await tick in ticks.values.prefix(3) {
///     print(tick)
/// }
/// ```
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The publisher's output.
    public typealias Element = P.Output
    /// Never fails.
    public typealias Failure = Never

    /// Reads the values one at a time.
    ///
    /// ```swift
    /// var iterator = numbers.values.makeAsyncIterator()
    /// let first = await iterator.next()
    /// ```
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        let owner: AsyncBridgeOwner<P.Output, Never>

        @inlinable
        init(owner: AsyncBridgeOwner<P.Output, Never>) {
            self.owner = owner
        }

        /// The next value, or nil once the publisher has finished or the task is cancelled.
        ///
        /// ```swift
        /// let value = await iterator.next()
        /// ```
        @inlinable
        public mutating func next() async -> P.Output? {
            switch await owner.bridge.next(isolation: nil) {
            case .success(let value): value
            }
        }

        /// The next value, read on `actor`'s executor.
        ///
        /// ```swift
        /// let value = await iterator.next(isolation: #isolation)
        /// ```
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await owner.bridge.next(isolation: actor) {
            case .success(let value): value
            }
        }
    }

    @usableFromInline
    let publisher: P

    /// Wraps `publisher`.
    ///
    /// ```swift
    /// let sequence = AsyncPublisher(numbers)
    /// ```
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns an iterator over its values.
    ///
    /// ```swift
    /// var iterator = numbers.values.makeAsyncIterator()
    /// ```
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, Never>()
        publisher.receive(subscriber: bridge)
        return Iterator(owner: AsyncBridgeOwner(bridge))
    }
}
