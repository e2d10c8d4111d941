extension Publisher {
    /// Shares one subscription to this publisher among all subscribers.
    ///
    /// The first subscriber connects; later ones see only the values sent after they subscribe;
    /// when the last one cancels the upstream is cancelled, and the next subscriber starts it
    /// again. After the upstream completes, new subscribers receive only the completion.
    ///
    /// ```swift
    /// let result = validation.share()
    /// let message = result.map(\.message).sink { label.text = $0 }
    /// let isValid = result.map(\.isValid).sink { button.isEnabled = $0 }
    /// ```
    @inlinable
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares one upstream subscription among its subscribers: a multicast
    /// through a `PassthroughSubject` that connects itself.
    ///
    /// It is a class: copies share the connection, and `==` compares identity.
    ///
    /// ```swift
    /// let shared = Publishers.Share(upstream: request)
    /// ```
    // Unchecked: it holds the upstream, which need not be Sendable; its connection is behind a lock.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public final let upstream: Upstream

        @usableFromInline
        let shared: Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let shared = Publishers.Share(upstream: request)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = upstream.multicast { PassthroughSubject() }.autoconnect()
        }

        /// Attaches `subscriber` to the shared subscription.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            shared.receive(subscriber: subscriber)
        }

        /// Whether the two are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}
