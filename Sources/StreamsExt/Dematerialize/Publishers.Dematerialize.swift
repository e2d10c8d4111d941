import Streams

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Turns a stream of events back into the stream they describe: each `.value` is sent, and
    /// the first `.finished` or `.failure` event ends the stream that way (the upstream is then
    /// cancelled). If the upstream finishes first, so does the result.
    ///
    /// Demand passes through: each event uses one unit of the upstream's.
    ///
    /// ```swift
    /// let restored = request.materialize().dematerialize()   // the same values and completion
    /// ```
    @inlinable
    public func dematerialize() -> Publishers.Dematerialize<Self> {
        Publishers.Dematerialize(upstream: self)
    }
}

extension Publishers {
    /// A publisher that turns its upstream's ``Event`` values back into values and a completion.
    ///
    /// ```swift
    /// let restored = Publishers.Dematerialize(upstream: events)
    /// ```
    public struct Dematerialize<Upstream: Publisher>: Publisher
    where Upstream.Output: EventConvertible, Upstream.Failure == Never {
        /// The events' values.
        public typealias Output = Upstream.Output.Output
        /// The events' failure.
        public typealias Failure = Upstream.Output.Failure

        /// The publisher of events.
        public let upstream: Upstream

        /// Makes a publisher of the stream `upstream`'s events describe.
        ///
        /// ```swift
        /// let restored = Publishers.Dematerialize(upstream: events)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a subscription that reads the events.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DematerializeSubscription<Upstream.Output, S>(downstream: subscriber))
        }
    }
}
