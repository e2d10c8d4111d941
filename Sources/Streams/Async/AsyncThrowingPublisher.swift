extension Publisher {
    /// The publisher's values as an async sequence that throws the publisher's failure: each
    /// step of the loop asks for one value.
    ///
    /// Leaving the loop, or cancelling the task, cancels the subscription.
    ///
    /// ```swift
    /// for try await user in session.requestPublisher(for: request).decode(type: User.self, decoder: JSONDecoder()).values {
    ///     print(user.name)
    /// }
    /// ```
    @inlinable
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// A publisher seen as an `AsyncSequence` that throws its failure.
///
/// Each iterator subscribes once and requests one value per `next()`; after the failure has
/// been thrown, `next()` returns nil. As in Combine, `next()` throws untyped (`any Error`): the
/// thrown error is the publisher's failure, so cast it back with `catch let error as MyError`.
///
/// Copies of an iterator share its subscription, and several tasks may call `next()` at once:
/// each call waits for a value of its own, in the order the calls were made. A failure is thrown
/// by the oldest waiting call (or, when none waits, by the next call) and the other waiting calls
/// return nil; `.finished`, or cancelling any of the waiting tasks, makes every waiting call
/// return nil.
///
/// ```swift
/// do {
///     for try await line in lines.values {
///         print(line)
///     }
/// } catch let error as LineError {
///     print("failed: \(error)")
/// }
/// ```
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = P.Output
    /// What iterating throws: `any Error`, as in Combine (the error thrown is always a
    /// `P.Failure`).
    public typealias Failure = any Error

    /// Reads the values one at a time.
    ///
    /// ```swift
    /// var iterator = lines.values.makeAsyncIterator()
    /// let first = try await iterator.next()
    /// ```
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        let owner: AsyncBridgeOwner<P.Output, P.Failure>

        @inlinable
        init(owner: AsyncBridgeOwner<P.Output, P.Failure>) {
            self.owner = owner
        }

        /// The next value, nil once the publisher has finished or the task is cancelled; throws
        /// the publisher's failure (untyped, as in Combine).
        ///
        /// ```swift
        /// let value = try await iterator.next()
        /// ```
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await owner.bridge.next(isolation: nil).get()
        }

        /// The next value, read on `actor`'s executor.
        ///
        /// ```swift
        /// let value = try await iterator.next(isolation: #isolation)
        /// ```
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> P.Output? {
            try await owner.bridge.next(isolation: actor).get()
        }
    }

    @usableFromInline
    let publisher: P

    /// Wraps `publisher`.
    ///
    /// ```swift
    /// let sequence = AsyncThrowingPublisher(lines)
    /// ```
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns an iterator over its values.
    ///
    /// ```swift
    /// var iterator = lines.values.makeAsyncIterator()
    /// ```
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, P.Failure>()
        publisher.receive(subscriber: bridge)
        return Iterator(owner: AsyncBridgeOwner(bridge))
    }
}
