extension Publisher {
    /// Sends only the last value, when upstream finishes; nothing if there was none.
    ///
    /// ```swift
    /// let latest = [1, 2, 3].publisher.last()   // 3
    /// ```
    @inlinable
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's last value once the upstream finishes.
    ///
    /// ```swift
    /// let latest = Publishers.Last(upstream: readings)
    /// ```
    public struct Last<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose last value is sent.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let latest = Publishers.Last(upstream: readings)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var last: Output?
            upstream.receive(
                subscriber: ReducingSubscription<Output, Failure, S>(
                    name: "Last", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        last = input
                        return .more
                    },
                    result: { last }))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}
