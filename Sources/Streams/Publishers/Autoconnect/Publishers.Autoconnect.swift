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
    /// received a completion; the next subscriber after a disconnect connects again. A subscriber
    /// that arrives while that disconnect is under way does not connect itself: the thread that
    /// disconnects connects for it once the old connection's `cancel()` has returned, so two
    /// connections never overlap and no upstream value reaches the subject twice.
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
            connect()
        }

        /// One subscriber cancelled: disconnects when none are left.
        @inlinable
        func subscriberLeft() {
            guard let connection = state.withLock({ $0.subscriberLeft() }) else { return }
            if disconnect(connection) {
                connect()
            }
        }

        /// Connects, again as long as everybody left during `connect()` and others arrived while
        /// that unused connection was being cancelled.
        @inlinable
        func connect() {
            while true {
                let connection = upstream.connect()
                guard let unused = state.withLock({ $0.connected(connection) }), disconnect(unused) else { return }
            }
        }

        /// Cancels `connection`: whether subscribers arrived meanwhile, for whom the caller must
        /// connect again. Until the cancel returns they do not connect, so that two connections
        /// never overlap.
        @inlinable
        func disconnect(_ connection: any Cancellable) -> Bool {
            connection.cancel()
            return state.withLock { $0.disconnected() }
        }
    }
}
