extension Publisher {
    /// Passes on values while `predicate` returns `true`; at the first value for which it
    /// returns `false`, cancels upstream and finishes without that value.
    ///
    /// ```swift
    /// let beforeBreak = [1, 2, 5, 1].publisher.prefix { $0 < 3 }   // 1, 2
    /// ```
    @inlinable
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that passes on its upstream's leading values while a predicate holds.
    ///
    /// ```swift
    /// let beforeBreak = Publishers.PrefixWhile(upstream: numbers) { $0 < 3 }
    /// ```
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose leading values are passed on.
        public let upstream: Upstream

        /// Returns `true` for the values to pass on; the first `false` ends the stream.
        public let predicate: (Upstream.Output) -> Bool

        /// Makes a publisher of `upstream`'s leading values that satisfy `predicate`.
        ///
        /// ```swift
        /// let beforeBreak = Publishers.PrefixWhile(upstream: numbers, predicate: { $0 < 3 })
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
            upstream.receive(
                subscriber: StageSubscription<Output, Failure, S>(
                    kind: .prefixWhile, downstream: subscriber, mapFailure: { $0 },
                    step: { input in predicate(input) ? .emit(input) : .finish }))
        }
    }
}
