extension Publisher {
    /// Drops values while `predicate` returns `true`, then passes on every value from the
    /// first one for which it returns `false`.
    ///
    /// ```swift
    /// let afterWarmUp = readings.drop { $0.isWarmingUp }
    /// ```
    @inlinable
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that drops its upstream's leading values while a predicate holds.
    ///
    /// ```swift
    /// let afterWarmUp = Publishers.DropWhile(upstream: readings) { $0.isWarmingUp }
    /// ```
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose leading values are dropped.
        public let upstream: Upstream

        /// Returns `true` for the leading values to drop; no longer asked once it has returned
        /// `false`.
        public let predicate: (Upstream.Output) -> Bool

        /// Makes a publisher that drops `upstream`'s leading values while `predicate` holds.
        ///
        /// ```swift
        /// let afterWarmUp = Publishers.DropWhile(upstream: readings, predicate: { $0.isWarmingUp })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            var dropping = true
            upstream.receive(
                subscriber: StageSubscription<Output, Failure, S>(
                    kind: .dropWhile, downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        if dropping {
                            guard !predicate(input) else { return .drop }
                            dropping = false
                        }
                        return .emit(input)
                    }))
        }
    }
}
