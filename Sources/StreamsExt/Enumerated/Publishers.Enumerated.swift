import Streams

extension Publisher {
    /// Pairs every value with its position in the stream, counted from `initial`.
    ///
    /// Each subscription counts on its own, from `initial`. Demand, completion and cancellation
    /// pass through: one value in, one pair out.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .enumerated(initial: 1)
    ///     .sink { print($0.index, $0.element) }   // 1 a, 2 b, 3 c
    /// ```
    @inlinable
    public func enumerated(initial: Int = 0) -> Publishers.Enumerated<Self> {
        Publishers.Enumerated(upstream: self, initial: initial)
    }
}

extension Publishers {
    /// A publisher that pairs every value of its upstream with its position, counted from
    /// `initial`.
    ///
    /// ```swift
    /// let numbered = Publishers.Enumerated(upstream: ["a", "b"].publisher, initial: 1)
    /// // (index: 1, element: "a"), (index: 2, element: "b")
    /// ```
    public struct Enumerated<Upstream: Publisher>: Publisher {
        /// The position of a value, and the value.
        public typealias Output = (index: Int, element: Upstream.Output)
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are numbered.
        public let upstream: Upstream

        /// The position of the first value.
        public let initial: Int

        /// Makes a publisher that numbers `upstream`'s values from `initial`.
        ///
        /// ```swift
        /// let numbered = Publishers.Enumerated(upstream: subject, initial: 0)
        /// ```
        @inlinable
        public init(upstream: Upstream, initial: Int = 0) {
            self.upstream = upstream
            self.initial = initial
        }

        /// Attaches `subscriber` through a counting subscription of its own.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: EnumeratedSubscription<Upstream.Output, S>(downstream: subscriber, initial: initial))
        }
    }
}
