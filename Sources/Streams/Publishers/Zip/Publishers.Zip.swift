extension Publisher {
    /// Combines this publisher with `other`. Pairs the first value of each publisher, then the second
    /// of each, and so on, keeping values until their partners arrive. It finishes when a publisher has
    /// finished and no value of it is left to pair; any failure fails it.
    ///
    /// ```swift
    /// let form = userName.zip(password)
    /// ```
    @inlinable
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Combines this publisher with `other` and transforms each tuple.
    ///
    /// ```swift
    /// let isValid = userName.zip(password) { !$0.isEmpty && $1.count >= 8 }
    /// ```
    @inlinable
    public func zip<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        zip(other).map(transform)
    }
}

extension Publishers {
    /// A publisher of values paired in order from two publishers.
    ///
    /// Pairs the first value of each publisher, then the second of each, and so on, keeping values
    /// until their partners arrive. It finishes when a publisher has finished and no value of it is
    /// left to pair; any failure fails it.
    ///
    /// ```swift
    /// let pairs = first.zip(second)
    /// ```
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple of one value from each publisher.
        public typealias Output = (A.Output, B.Output)
        /// The publishers' failure.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B

        /// Makes a publisher of values paired in order from the given publishers.
        ///
        /// ```swift
        /// let combined = Publishers.Zip(a, b)
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
                name: "Zip", mode: .zip, count: 2, downstream: subscriber,
                combine: { values in (values[0] as! A.Output, values[1] as! B.Output) }
            ).start { combining in
                combining.attach(a, at: 0)
                combining.attach(b, at: 1)
            }
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
