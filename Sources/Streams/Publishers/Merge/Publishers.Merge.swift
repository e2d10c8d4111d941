extension Publisher {
    /// Passes on the values of this publisher and `other` as they arrive.
    ///
    /// It finishes when both have finished; the first failure cancels the other.
    ///
    /// ```swift
    /// let taps = buttonA.merge(with: buttonB)
    /// ```
    @inlinable
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Merge(self, other)
    }
}

extension Publishers {
    /// A publisher that passes on the values of two publishers as they arrive.
    ///
    /// ```swift
    /// let taps = Publishers.Merge(buttonA, buttonB)
    /// ```
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The values of both publishers.
        public typealias Output = A.Output
        /// The failure of both publishers.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B

        /// Makes a publisher that merges `a` and `b`.
        ///
        /// ```swift
        /// let taps = Publishers.Merge(buttonA, buttonB)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`: the subscription first, then both upstreams.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b) = (self.a, self.b)
            FanInSubscription(name: "Merge", mode: .merge, count: 2, downstream: subscriber, combine: nil).start { merge in
                merge.attachMerged(a, at: 0)
                merge.attachMerged(b, at: 1)
            }
        }

        /// Merges a third publisher in.
        ///
        /// ```swift
        /// let all = Publishers.Merge(a, b).merge(with: c)
        /// ```
        @inlinable
        public func merge<P: Publisher>(with other: P) -> Publishers.Merge3<A, B, P>
        where P.Output == Output, P.Failure == Failure {
            Publishers.Merge3(a, b, other)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
