import Streams

extension Publishers {
    /// A publisher that mirrors whichever of any number of publishers sends something first (a
    /// value or a completion), cancelling all the others at that moment. See
    /// `Collection.amb()`.
    ///
    /// It is one race between all the publishers, not a chain of two-publisher races: it
    /// subscribes to them in order, in a loop (no recursion, whatever their number), asks each
    /// for one value, and costs the same per event however many there are. As with `amb(_:)`,
    /// they are all subscribed before the subscriber receives its subscription. A publisher whose
    /// subscription arrives after the race is decided is cancelled at once. With no publishers
    /// it finishes at once.
    ///
    /// ```swift
    /// let fastest = Publishers.AmbMany(mirrors.map { $0.fetch() })
    /// ```
    public struct AmbMany<Upstream: Publisher>: Publisher {
        /// The values of the winner.
        public typealias Output = Upstream.Output
        /// The publishers' failure.
        public typealias Failure = Upstream.Failure

        /// The publishers that race, in the order they are subscribed.
        public let publishers: [Upstream]

        /// Makes a publisher that races all of `publishers`.
        ///
        /// ```swift
        /// let winner = Publishers.AmbMany([cache.lookup(key), network.fetch(key)])
        /// ```
        @inlinable
        public init<S: Swift.Sequence>(_ publishers: S) where S.Element == Upstream {
            self.publishers = Array(publishers)
        }

        /// Subscribes to the publishers in order, then hands `subscriber` its subscription (as
        /// CombineExt's chain of `amb`s does).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard !publishers.isEmpty else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let subscription = AmbSubscription<S>(downstream: subscriber, contenders: publishers.count)
            for index in publishers.indices {
                subscription.attach(publishers[index], side: index)
            }
            subscription.start()
        }
    }
}
