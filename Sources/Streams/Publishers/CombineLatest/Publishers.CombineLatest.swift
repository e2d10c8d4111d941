extension Publisher {
    /// Combines this publisher with `other`. Emits nothing until every publisher has sent a value; then
    /// each new value from any of them sends a tuple of the latest values. A tuple with no demand for
    /// it is dropped. It finishes when all finish; any failure fails it.
    ///
    /// ```swift
    /// let form = userName.combineLatest(password)
    /// ```
    @inlinable
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P> where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines this publisher with `other` and transforms each tuple.
    ///
    /// ```swift
    /// let isValid = userName.combineLatest(password) { !$0.isEmpty && $1.count >= 8 }
    /// ```
    @inlinable
    public func combineLatest<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        combineLatest(other).map(transform)
    }
}

extension Publishers {
    /// A publisher of the latest values of two publishers.
    ///
    /// Emits nothing until every publisher has sent a value; then each new value from any of them
    /// sends a tuple of the latest values. A tuple with no demand for it is dropped. It finishes
    /// when all finish; any failure fails it.
    ///
    /// ```swift
    /// let pairs = first.combineLatest(second)
    /// ```
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of one value from each publisher.
        public typealias Output = (A.Output, B.Output)
        /// The publishers' failure.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B

        /// Makes a publisher of the latest values of the given publishers.
        ///
        /// ```swift
        /// let combined = Publishers.CombineLatest(a, b)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b) = (self.a, self.b)
            FanInSubscription(
                name: "CombineLatest", mode: .latest, count: 2, downstream: subscriber,
                combine: { values in (values[0] as! A.Output, values[1] as! B.Output) }
            ).start { combining in
                combining.attach(a, at: 0)
                combining.attach(b, at: 1)
            }
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
