extension Publisher {
    /// Passes on the values of this publisher, `b` and `c` as they arrive.
    ///
    /// ```swift
    /// let events = keyboard.merge(with: mouse, touch)
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }
}

extension Publishers {
    /// A publisher that passes on the values of three publishers as they arrive.
    ///
    /// ```swift
    /// let events = Publishers.Merge3(keyboard, mouse, touch)
    /// ```
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure, B.Output == C.Output, B.Failure == C.Failure {
        /// The values of the publishers.
        public typealias Output = A.Output
        /// The failure of the publishers.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C

        /// Makes a publisher that merges `a`, `b` and `c`.
        ///
        /// ```swift
        /// let events = Publishers.Merge3(keyboard, mouse, touch)
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
            FanInSubscription(name: "Merge", mode: .merge, count: 3, downstream: subscriber, combine: nil).start { merge in
                merge.attachMerged(a, at: 0)
                merge.attachMerged(b, at: 1)
                merge.attachMerged(c, at: 2)
            }
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
