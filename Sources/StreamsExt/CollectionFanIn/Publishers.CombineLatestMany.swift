import Streams

extension Publishers {
    /// A publisher that combines the latest values of any number of publishers of one type into
    /// an array, in the order of the publishers. See `Collection.combineLatest()`.
    ///
    /// ```swift
    /// let all = Publishers.CombineLatestMany(fields.map(\.$isValid))   // [Bool], one per field
    /// ```
    public struct CombineLatestMany<Upstream: Publisher>: Publisher {
        /// The latest value of every publisher, in their order.
        public typealias Output = [Upstream.Output]
        /// The publishers' failure.
        public typealias Failure = Upstream.Failure

        /// The publishers combined.
        public let publishers: [Upstream]

        /// Makes a publisher that combines the latest values of `publishers`.
        ///
        /// ```swift
        /// let all = Publishers.CombineLatestMany([a, b, c])
        /// ```
        @inlinable
        public init<S: Swift.Sequence>(_ publishers: S) where S.Element == Upstream {
            self.publishers = Array(publishers)
        }

        /// Hands `subscriber` its subscription, then subscribes to the publishers in order, in a
        /// loop (no recursion, whatever their number). With no publishers it finishes at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let publishers = self.publishers
            let latest = LatestValues<Upstream.Output>(count: publishers.count)
            FanInSubscription(
                name: "CombineLatest", mode: .latest, count: publishers.count, downstream: subscriber,
                combine: { _ in latest.combined() },
                keep: { value, index in latest.keep(value as! Upstream.Output, at: index) }
            ).start { combining in
                for index in publishers.indices { combining.attach(publishers[index], at: index) }
            }
        }
    }
}
