extension Publisher where Output: Comparable {
    /// Sends the smallest value when upstream finishes; nothing if there was none.
    ///
    /// ```swift
    /// let fastest = lapTimes.min()
    /// ```
    @inlinable
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Sends the largest value when upstream finishes; nothing if there was none.
    ///
    /// ```swift
    /// let highest = scores.max()
    /// ```
    @inlinable
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Sends the smallest value under `areInIncreasingOrder` when upstream finishes; of equal
    /// values, the first.
    ///
    /// ```swift
    /// let shortest = words.min { $0.count < $1.count }
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Sends the largest value under `areInIncreasingOrder` when upstream finishes; of equal
    /// values, the first.
    ///
    /// ```swift
    /// let longest = words.max { $0.count < $1.count }
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}

extension Publishers {
    /// A publisher that sends the greatest of its upstream's values under an ordering once the
    /// upstream finishes; `min` gives it the reversed ordering.
    ///
    /// ```swift
    /// let highest = Publishers.Comparison(upstream: scores, areInIncreasingOrder: <)
    /// ```
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are compared.
        public let upstream: Upstream

        /// Returns `true` when its first argument orders before its second.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Makes a publisher of the greatest of `upstream`'s values under `areInIncreasingOrder`.
        ///
        /// ```swift
        /// let highest = Publishers.Comparison(upstream: scores, areInIncreasingOrder: <)
        /// ```
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber`; the value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let areInIncreasingOrder = self.areInIncreasingOrder
            var greatest: Output?
            upstream.receive(
                subscriber: ReducingSubscription<Output, Failure, S>(
                    name: "Comparison", downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        if let current = greatest, !areInIncreasingOrder(current, input) { return .more }
                        greatest = input
                        return .more
                    },
                    result: { greatest }))
        }
    }
}
