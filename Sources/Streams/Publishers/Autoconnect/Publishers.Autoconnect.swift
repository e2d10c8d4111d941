extension ConnectablePublisher {
    /// Connects when the first subscriber arrives and disconnects when the last one cancels.
    ///
    /// ```swift
    /// let shared = numbers.multicast { PassthroughSubject<Int, Never>() }.autoconnect()
    /// let cancellable = shared.sink { print($0) }   // connects now
    /// ```
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that connects its connectable upstream on the first subscription and
    /// disconnects it when the number of subscribers drops to zero.
    ///
    /// Each subscriber is subscribed to the upstream first; the first one then connects. A
    /// subscriber counts as gone at the first `cancel()` of its subscription, also after it
    /// received a completion; the next subscriber after a disconnect connects again.
    ///
    /// ```swift
    /// let live = Publishers.Autoconnect(upstream: connectable)
    /// ```
    // Unchecked: it holds the upstream, which need not be Sendable.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher.
        public final let upstream: Upstream

        @usableFromInline
        let state = LockedState(AutoconnectStateMachine())

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let live = Publishers.Autoconnect(upstream: connectable)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`, then connects the upstream if this is the first subscriber.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let mustConnect = state.withLock { $0.subscriberArrived() }
            upstream.receive(subscriber: AutoconnectInner(parent: self, downstream: subscriber))
            guard mustConnect else { return }
            let connection = upstream.connect()
            state.withLock { $0.connected(connection) }?.cancel()
        }

        /// One subscriber cancelled: disconnects when none are left.
        @inlinable
        func subscriberLeft() {
            state.withLock { $0.subscriberLeft() }?.cancel()
        }
    }
}
