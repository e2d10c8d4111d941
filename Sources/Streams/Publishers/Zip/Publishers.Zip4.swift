extension Publisher {
    /// Combines this publisher with `b`, `c` and `d`. Pairs the first value of each publisher, then the
    /// second of each, and so on, keeping values until their partners arrive. It finishes when a
    /// publisher has finished and no value of it is left to pair; any failure fails it.
    ///
    /// ```swift
    /// let form = userName.zip(password, passwordAgain, acceptsTerms)
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, D: Publisher>(_ b: B, _ c: C, _ d: D) -> Publishers.Zip4<Self, B, C, D>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        Publishers.Zip4(self, b, c, d)
    }

    /// Combines this publisher with `b`, `c` and `d` and transforms each tuple.
    ///
    /// ```swift
    /// let isValid = userName.zip(password, passwordAgain, acceptsTerms) { !$0.isEmpty && $1 == $2 && $3 }
    /// ```
    @inlinable
    public func zip<B: Publisher, C: Publisher, D: Publisher, T>(
        _ b: B,
        _ c: C,
        _ d: D,
        _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, B, C, D>, T>
    where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
        zip(b, c, d).map(transform)
    }
}

extension Publishers {
    /// A publisher of values paired in order from four publishers.
    ///
    /// Pairs the first value of each publisher, then the second of each, and so on, keeping values
    /// until their partners arrive. It finishes when a publisher has finished and no value of it is
    /// left to pair; any failure fails it.
    ///
    /// ```swift
    /// let pairs = first.zip(second, third, fourth)
    /// ```
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// A tuple of one value from each publisher.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The publishers' failure.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C
        /// The fourth publisher.
        public let d: D

        /// Makes a publisher of values paired in order from the given publishers.
        ///
        /// ```swift
        /// let combined = Publishers.Zip4(a, b, c, d)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b, c, d) = (self.a, self.b, self.c, self.d)
            FanInSubscription(
                name: "Zip", mode: .zip, count: 4, downstream: subscriber,
                combine: { values in
                    (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output, values[3] as! D.Output)
                }
            ).start { combining in
                combining.attach(a, at: 0)
                combining.attach(b, at: 1)
                combining.attach(c, at: 2)
                combining.attach(d, at: 3)
            }
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
