import Streams

extension Publishers {
    /// A publisher that iterates an `AsyncSequence` in a `Task`, pulling no more elements than
    /// the subscriber has requested. See `AsyncSequence.publisher`.
    ///
    /// - Back-pressure: the task calls the iterator's `next()` only when there is demand for
    ///   the element it asks for, one call per unit of demand; it never reads ahead or buffers.
    ///   While there is no demand it waits without calling `next()`.
    /// - Lazy: the task starts (and makes the iterator) on the subscriber's first request with
    ///   demand. Each subscriber iterates the sequence on its own.
    /// - The end of the sequence finishes the publisher; an error the iterator throws fails it.
    ///   `Failure` is the sequence's `Failure`: `Never` for a sequence that does not throw,
    ///   `any Error` or a typed error for one that does.
    /// - Cancelling the subscription cancels the task (an iterator waiting in `next()` sees the
    ///   cancellation) and nothing reaches the subscriber after the cancel.
    /// - Values and the completion are sent from the task, on no particular thread: use
    ///   `receive(on:)` to move them.
    ///
    /// Sendability: the sequence must be `Sendable`, because it is iterated in a task; its
    /// elements are made there and handed to the subscriber there, so they need not be.
    ///
    /// ```
    /// sequence:  1 2 3 4 ...         (pulled one by one)
    /// request:   2-----1----
    /// result:    1-2---3----         (next() called 3 times, never a 4th)
    /// ```
    ///
    /// ```swift
    /// let lines = Publishers.FromAsyncSequence(url.lines)        // or: url.lines.publisher
    /// let cancellable = lines.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public struct FromAsyncSequence<Base: AsyncSequence & Sendable>: Publisher {
        /// The sequence's elements.
        public typealias Output = Base.Element
        /// The sequence's failure: `Never` if it does not throw.
        public typealias Failure = Base.Failure

        /// The sequence iterated for each subscriber.
        public let base: Base
        /// The priority of the iterating task, or nil for the default.
        public let priority: TaskPriority?

        /// Makes a publisher that iterates `base`.
        ///
        /// ```swift
        /// let numbers = Publishers.FromAsyncSequence(AsyncStream { continuation in
        ///     for number in 1...3 { continuation.yield(number) }
        ///     continuation.finish()
        /// })
        /// ```
        @inlinable
        public init(_ base: Base, priority: TaskPriority? = nil) {
            self.base = base
            self.priority = priority
        }

        /// Hands `subscriber` its subscription; the iterating task starts on its first request.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: FromAsyncSequenceSubscription(downstream: subscriber, base: base, priority: priority))
        }
    }
}
