extension Publisher {
    /// Combines this publisher with `b` and `c`. Pairs the first value of each publisher, then the
    /// second of each, and so on, keeping values until their partners arrive. It finishes when a
    /// publisher has finished and no value of it is left to pair; any failure fails it.
    ///
    /// ```swift
    /// let form = userName.zip(password, passwordAgain)
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> Publishers.Zip3<Self, B, C>
    where B.Failure == Failure, C.Failure == Failure {
        Publishers.Zip3(self, b, c)
    }

    /// Combines this publisher with `b` and `c` and transforms each tuple.
    ///
    /// ```swift
    /// let isValid = userName.zip(password, passwordAgain) { !$0.isEmpty && $1 == $2 }
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, T>(
        _ b: B,
        _ c: C,
        _ transform: @escaping (Output, B.Output, C.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, B, C>, T> where B.Failure == Failure, C.Failure == Failure {
        zip(b, c).map(transform)
    }
}

extension Publishers {
    /// A publisher of values paired in order from three publishers.
    ///
    /// Pairs the first value of each publisher, then the second of each, and so on, keeping values
    /// until their partners arrive. It finishes when a publisher has finished and no value of it is
    /// left to pair; any failure fails it.
    ///
    /// ```swift
    /// let pairs = first.zip(second, third)
    /// ```
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Failure == B.Failure, A.Failure == C.Failure {
        /// A tuple of one value from each publisher.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The publishers' failure.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C

        /// Makes a publisher of values paired in order from the given publishers.
        ///
        /// ```swift
        /// let combined = Publishers.Zip3(a, b, c)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b, c) = (self.a, self.b, self.c)
            FanInSubscription(
                name: "Zip", mode: .zip, count: 3, downstream: subscriber,
                combine: { values in (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output) }
            ).start { combining in
                combining.attach(a, at: 0)
                combining.attach(b, at: 1)
                combining.attach(c, at: 2)
            }
        }
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
