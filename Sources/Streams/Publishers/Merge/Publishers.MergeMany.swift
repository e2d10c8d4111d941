extension Publisher {
    /// Passes on the values of this publisher and `other`, of the same type, as they arrive.
    ///
    /// ```swift
    /// let taps = leftButton.taps.merge(with: rightButton.taps)
    /// ```
    @inlinable
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// A publisher that passes on the values of any number of publishers of one type.
    ///
    /// ```swift
    /// let all = Publishers.MergeMany(requests)
    /// ```
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' values.
        public typealias Output = Upstream.Output
        /// The upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The publishers merged.
        public let publishers: [Upstream]

        /// Makes a publisher that merges `upstream`.
        ///
        /// ```swift
        /// let all = Publishers.MergeMany(first, second, third)
        /// ```
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Makes a publisher that merges the publishers of `upstream`; none finishes at once.
        ///
        /// ```swift
        /// let all = Publishers.MergeMany(urls.map(fetch))
        /// ```
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let publishers = self.publishers
            let subscription = FanInSubscription(
                name: "Merge", mode: .merge, count: publishers.count, downstream: subscriber, combine: nil)
            subscription.start { merge in
                for (index, publisher) in publishers.enumerated() {
                    merge.attachMerged(publisher, at: index)
                }
            }
        }

        /// Merges one more publisher of the same type in.
        ///
        /// ```swift
        /// let more = all.merge(with: another)
        /// ```
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
