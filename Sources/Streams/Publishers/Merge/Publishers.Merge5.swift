extension Publisher {
    /// Passes on the values of this publisher and `b`, `c`, `d` and `e` as they arrive.
    ///
    /// ```swift
    /// let events = keyboard.merge(with: mouse, touch, pencil, voice)
    /// ```
    @inlinable
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E
    ) -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure,
        C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure,
        E.Output == Output, E.Failure == Failure
    {
        Publishers.Merge5(self, b, c, d, e)
    }
}

extension Publishers {
    /// A publisher that passes on the values of five publishers as they arrive.
    ///
    /// ```swift
    /// let events = Publishers.Merge5(keyboard, mouse, touch, pencil, voice)
    /// ```
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure
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
        /// The fifth publisher.
        public let e: E

        /// Makes a publisher that merges `a`, `b`, `c`, `d` and `e`.
        ///
        /// ```swift
        /// let events = Publishers.Merge5(keyboard, mouse, touch, pencil, voice)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b, c, d, e) = (self.a, self.b, self.c, self.d, self.e)
            FanInSubscription(name: "Merge", mode: .merge, count: 5, downstream: subscriber, combine: nil).start { merge in
                merge.attachMerged(a, at: 0)
                merge.attachMerged(b, at: 1)
                merge.attachMerged(c, at: 2)
                merge.attachMerged(d, at: 3)
                merge.attachMerged(e, at: 4)
            }
        }
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
