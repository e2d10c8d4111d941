import Streams

extension Publishers {
    /// A publisher that mirrors whichever of two publishers sends something first. See
    /// `amb(_:)`.
    ///
    /// ```swift
    /// let fastest = Publishers.Amb(first: primary.fetch(), second: mirror.fetch())
    /// ```
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        /// The values of the winner.
        public typealias Output = First.Output
        /// The failure of both.
        public typealias Failure = First.Failure

        /// The publisher subscribed first.
        public let first: First
        /// The publisher subscribed second.
        public let second: Second

        /// Makes a publisher that races `first` against `second`.
        ///
        /// ```swift
        /// let winner = Publishers.Amb(first: cache.lookup(key), second: network.fetch(key))
        /// ```
        @inlinable
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        /// Subscribes to `first` and `second`, then hands `subscriber` its subscription (as
        /// CombineExt does: what they send meanwhile waits for it).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = AmbSubscription<S>(downstream: subscriber, contenders: 2)
            subscription.attach(first, side: 0)
            subscription.attach(second, side: 1)
            subscription.start()
        }
    }
}
