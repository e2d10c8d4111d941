extension Publisher {
    /// Passes on the values of this publisher and `b`, `c`, `d`, `e`, `f`, `g` and `h` as they arrive.
    ///
    /// ```swift
    /// let events = keyboard.merge(with: mouse, touch, pencil, voice, gamepad, remote, timer)
    /// ```
    @inlinable
    public func merge<
        B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        F: Publisher, G: Publisher, H: Publisher
    >(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure,
        C.Output == Output, C.Failure == Failure,
        D.Output == Output, D.Failure == Failure,
        E.Output == Output, E.Failure == Failure,
        F.Output == Output, F.Failure == Failure,
        G.Output == Output, G.Failure == Failure,
        H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {
    /// A publisher that passes on the values of eight publishers as they arrive.
    ///
    /// ```swift
    /// let events = Publishers.Merge8(keyboard, mouse, touch, pencil, voice, gamepad, remote, timer)
    /// ```
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        B.Output == C.Output, B.Failure == C.Failure,
        C.Output == D.Output, C.Failure == D.Failure,
        D.Output == E.Output, D.Failure == E.Failure,
        E.Output == F.Output, E.Failure == F.Failure,
        F.Output == G.Output, F.Failure == G.Failure,
        G.Output == H.Output, G.Failure == H.Failure
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
        /// The sixth publisher.
        public let f: F
        /// The seventh publisher.
        public let g: G
        /// The eighth publisher.
        public let h: H

        /// Makes a publisher that merges `a`, `b`, `c`, `d`, `e`, `f`, `g` and `h`.
        ///
        /// ```swift
        /// let events = Publishers.Merge8(keyboard, mouse, touch, pencil, voice, gamepad, remote, timer)
        /// ```
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Attaches `subscriber`: the subscription first, then the upstreams in order.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (a, b, c, d, e, f, g, h) = (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h)
            FanInSubscription(name: "Merge", mode: .merge, count: 8, downstream: subscriber, combine: nil).start { merge in
                merge.attachMerged(a, at: 0)
                merge.attachMerged(b, at: 1)
                merge.attachMerged(c, at: 2)
                merge.attachMerged(d, at: 3)
                merge.attachMerged(e, at: 4)
                merge.attachMerged(f, at: 5)
                merge.attachMerged(g, at: 6)
                merge.attachMerged(h, at: 7)
            }
        }
    }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}
