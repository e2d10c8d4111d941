import Streams

extension Publisher {
    /// Turns every event of the upstream into a value: each value becomes `.value`, and the
    /// completion becomes one last `.finished` or `.failure` event, after which the stream
    /// finishes. The result never fails.
    ///
    /// Demand passes through; the last event waits until the downstream asks for it.
    ///
    /// ```swift
    /// let cancellable = api.user(id: 1).materialize().sink { event in
    ///     print(event)   // value(User(...)), then finished — or — failure(...)
    /// }
    /// ```
    @inlinable
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's values and completion as ``Event`` values.
    ///
    /// ```swift
    /// let events = Publishers.Materialize(upstream: request)
    /// ```
    public struct Materialize<Upstream: Publisher>: Publisher {
        /// Every event of the upstream.
        public typealias Output = Event<Upstream.Output, Upstream.Failure>
        /// The upstream's failure arrives as a value: this publisher cannot fail.
        public typealias Failure = Never

        /// The publisher whose events become values.
        public let upstream: Upstream

        /// Makes a publisher of `upstream`'s events.
        ///
        /// ```swift
        /// let events = Publishers.Materialize(upstream: request)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; the last event waits for demand.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: MaterializeSubscription<Upstream.Output, Upstream.Failure, S>(downstream: subscriber))
        }
    }
}
