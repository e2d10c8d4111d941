import Streams

extension Publishers {
    /// A publisher that sends the upstream's latest value each time a trigger sends a value, if
    /// a new one arrived since the last. See `sample(_:)`.
    ///
    /// ```swift
    /// let sampled = Publishers.Sample(upstream: positions, trigger: ticks)
    /// ```
    public struct Sample<Upstream: Publisher, Trigger: Publisher>: Publisher where Upstream.Failure == Trigger.Failure {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The shared failure.
        public typealias Failure = Upstream.Failure

        /// The publisher sampled.
        public let upstream: Upstream
        /// The publisher whose values take the samples.
        public let trigger: Trigger

        /// Makes a publisher that samples `upstream` on each value of `trigger`.
        ///
        /// ```swift
        /// let sampled = Publishers.Sample(upstream: positions, trigger: ticks)
        /// ```
        @inlinable
        public init(upstream: Upstream, trigger: Trigger) {
            self.upstream = upstream
            self.trigger = trigger
        }

        /// Hands `subscriber` its subscription, then subscribes to the upstream and the trigger.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = SampleSubscription<Upstream, Trigger, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: subscription)
            trigger.receive(subscriber: SideSubscriber(parent: subscription))
        }
    }
}
