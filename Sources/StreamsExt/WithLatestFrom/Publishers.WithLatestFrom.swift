import Streams

extension Publishers {
    /// A publisher that pairs every value of its upstream with the latest value of a second
    /// publisher, through `resultSelector`. See `withLatestFrom(_:resultSelector:)`.
    ///
    /// ```swift
    /// let submissions = Publishers.WithLatestFrom(upstream: taps, second: $text) { _, text in text }
    /// ```
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The failure of both publishers.
        public typealias Failure = Upstream.Failure
        /// Combines an upstream value with the latest value of the second publisher.
        public typealias ResultSelector = (Upstream.Output, Other.Output) -> Output

        /// The publisher whose values are sent, each with the latest of `second`'s.
        public let upstream: Upstream
        /// The publisher whose latest value goes with each of `upstream`'s.
        public let second: Other
        /// Makes each value sent downstream.
        public let resultSelector: ResultSelector

        /// Makes a publisher that combines every value of `upstream` with the latest of `second`.
        ///
        /// ```swift
        /// let pairs = Publishers.WithLatestFrom(upstream: taps, second: $text) { ($0, $1) }
        /// ```
        @inlinable
        public init(upstream: Upstream, second: Other, resultSelector: @escaping ResultSelector) {
            self.upstream = upstream
            self.second = second
            self.resultSelector = resultSelector
        }

        /// Hands `subscriber` its subscription, then subscribes to `second`; `upstream` is
        /// subscribed once `second` has sent its first value.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = WithLatestFromSubscription<Upstream, Other, S>(
                downstream: subscriber, upstream: upstream, resultSelector: resultSelector)
            subscriber.receive(subscription: subscription)
            second.receive(subscriber: SideSubscriber(parent: subscription))
        }
    }
}
