extension Publisher {
    /// Sends the smallest value under the throwing `areInIncreasingOrder` when upstream
    /// finishes; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let earliest = events.tryMin { try $0.date() < $1.date() }
    /// ```
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Sends the largest value under the throwing `areInIncreasingOrder` when upstream
    /// finishes; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let latest = events.tryMax { try $0.date() < $1.date() }
    /// ```
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that sends the greatest of its upstream's values under a throwing ordering
    /// once the upstream finishes; `tryMin` gives it the reversed ordering.
    ///
    /// ```swift
    /// let latest = Publishers.TryComparison(upstream: events) { try $0.date() < $1.date() }
    /// ```
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are compared.
        public let upstream: Upstream

        /// Returns `true` when its first argument orders before its second; a thrown error ends
        /// the stream.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Makes a publisher of the greatest of `upstream`'s values under `areInIncreasingOrder`.
        ///
        /// ```swift
        /// let latest = Publishers.TryComparison(upstream: events, areInIncreasingOrder: { try $0.date() < $1.date() })
        /// ```
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let areInIncreasingOrder = self.areInIncreasingOrder
            var greatest: Output?
            upstream.receive(
                subscriber: ReducingSubscription<Output, Upstream.Failure, S>(
                    name: "TryComparison", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        do {
                            if let current = greatest, try !areInIncreasingOrder(current, input) { return .more }
                            greatest = input
                            return .more
                        } catch {
                            return .fail(error)
                        }
                    },
                    result: { greatest }))
        }
    }
}
