extension Publisher {
    /// Shares this publisher through a subject that `createSubject` makes, once, on first use.
    ///
    /// Subscribers attach to the subject; nothing flows until you call `connect()`.
    ///
    /// ```swift
    /// let shared = [1, 2, 3].publisher.multicast { PassthroughSubject<Int, Never>() }
    /// let a = shared.sink { print("A", $0) }
    /// let b = shared.sink { print("B", $0) }
    /// let connection = shared.connect()   // A 1, B 1, A 2, B 2, A 3, B 3
    /// ```
    @inlinable
    public func multicast<S: Subject>(
        _ createSubject: @escaping () -> S
    ) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Shares this publisher through `subject`; nothing flows until you call `connect()`.
    ///
    /// ```swift
    /// let shared = numbers.multicast(subject: PassthroughSubject<Int, Never>())
    /// ```
    @inlinable
    public func multicast<S: Subject>(
        subject: S
    ) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
        multicast { subject }
    }
}

extension Publishers {
    /// A connectable publisher that shares its upstream through a subject.
    ///
    /// The subject is made on first use (the first subscriber or `connect()`) and kept. Each
    /// subscriber gets a subscription of its own (it describes itself as "Multicast") attached
    /// to the subject. `connect()` subscribes the subject to the upstream, every time it is
    /// called; the connection does not keep the subject alive.
    ///
    /// ```swift
    /// let shared = Publishers.Multicast(upstream: numbers) { PassthroughSubject<Int, Never>() }
    /// ```
    // Unchecked: it holds the upstream and `createSubject`, which need not be Sendable.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
    where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public let upstream: Upstream

        /// Makes the subject, once.
        public let createSubject: () -> SubjectType

        @usableFromInline
        let state = LockedState(MulticastStateMachine<SubjectType>())

        /// Makes a connectable publisher that shares `upstream` through `createSubject()`.
        ///
        /// ```swift
        /// let shared = Publishers.Multicast(upstream: numbers, createSubject: { PassthroughSubject() })
        /// ```
        @inlinable
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, made on first use, outside the lock. Two threads that both use the
        /// multicast for the first time may both call `createSubject`; only the first subject
        /// made is kept and used.
        @inlinable
        var subject: SubjectType {
            if let subject = state.withLock({ $0.subject() }) { return subject }
            let made = createSubject()
            return state.withLock { $0.keep(made) }
        }

        /// Attaches `subscriber` to the subject through a subscription of its own.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subject = self.subject
            subject.receive(subscriber: MulticastInner<S>.Link(inner: MulticastInner(subject: subject), downstream: subscriber))
        }

        /// Subscribes the subject to the upstream; cancel the result to disconnect. Each call
        /// subscribes once more. The result holds the subject weakly.
        ///
        /// ```swift
        /// let connection = shared.connect()
        /// connection.cancel()
        /// ```
        @inlinable
        public func connect() -> any Cancellable {
            _ = subject  // makes the subject, and with it the link, if they were not made yet
            let link = state.withLock { $0.link }!
            return upstream.subscribe(link)
        }

        deinit {
            state.withLock { $0.link }?.multicastWentAway()
        }
    }
}
