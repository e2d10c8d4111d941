extension Publisher {
    /// Passes on the values of this publisher and `b`, `c` and `d` as they arrive.
    ///
    /// ```swift
    /// let events = keyboard.merge(with: mouse, touch, pencil)
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher>(
        with b: B, _ c: C, _ d: D
    ) -> Publishers.Merge4<Self, B, C, D>
    where
        B.Output == Output, B.Failure == Failure,
        C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure
    {
        Publishers.Merge4(self, b, c, d)
    }
}

extension Publishers {
    /// A publisher that passes on the values of four publishers as they arrive.
    ///
    /// ```swift
    /// let events = Publishers.Merge4(keyboard, mouse, touch, pencil)
    /// ```
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure
    {
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
        /// The fourth publisher.
        public let d: D

        /// Makes a publisher that merges `a`, `b`, `c` and `d`.
        ///
        /// ```swift
        /// let events = Publishers.Merge4(keyboard, mouse, touch, pencil)
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
            FanInSubscription(name: "Merge", mode: .merge, count: 4, downstream: subscriber, combine: nil).start { merge in
                merge.attachMerged(a, at: 0)
                merge.attachMerged(b, at: 1)
                merge.attachMerged(c, at: 2)
                merge.attachMerged(d, at: 3)
            }
        }
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
