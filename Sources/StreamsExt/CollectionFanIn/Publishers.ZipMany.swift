import Streams

extension Publishers {
    /// A publisher that pairs the values of any number of publishers of one type, by position,
    /// into arrays in the order of the publishers. See `Collection.zip()`.
    ///
    /// ```swift
    /// let rows = Publishers.ZipMany(columns)   // the first value of each, then the second, …
    /// ```
    public struct ZipMany<Upstream: Publisher>: Publisher {
        /// One value of every publisher, in their order.
        public typealias Output = [Upstream.Output]
        /// The publishers' failure.
        public typealias Failure = Upstream.Failure

        /// The publishers zipped.
        public let publishers: [Upstream]

        /// Makes a publisher that zips `publishers`.
        ///
        /// ```swift
        /// let rows = Publishers.ZipMany([a, b, c])
        /// ```
        @inlinable
        public init<S: Swift.Sequence>(_ publishers: S) where S.Element == Upstream {
            self.publishers = Array(publishers)
        }

        /// Subscribes to the publishers in order, in a loop (no recursion, whatever their
        /// number), and hands `subscriber` its subscription once each has its own. With no
        /// publishers it finishes at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let publishers = self.publishers
            guard !publishers.isEmpty else {
                return Empty<Output, Failure>().receive(subscriber: subscriber)
            }
            FanInSubscription(
                name: "Zip", mode: .zip, count: publishers.count, downstream: subscriber,
                combine: { values in values.map { $0 as! Upstream.Output } }
            ).start { zipping in
                for index in publishers.indices { zipping.attach(publishers[index], at: index) }
            }
        }
    }
}
