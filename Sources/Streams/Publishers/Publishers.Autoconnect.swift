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
    /// ```swift
    /// let live = Publishers.Autoconnect(upstream: connectable)
    /// ```
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher.
        public final let upstream: Upstream

        @usableFromInline
        let lock = Lock()
        // Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var subscriberCount = 0
        @usableFromInline
        @exclusivity(unchecked)
        var connection: (any Cancellable)?
        @usableFromInline
        @exclusivity(unchecked)
        var connecting = false

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let live = Publishers.Autoconnect(upstream: connectable)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` and connects the upstream if this is the first subscriber.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let mustConnect = lock.withLockUnchecked { () -> Bool in
                subscriberCount += 1
                guard connection == nil, !connecting else { return false }
                connecting = true
                return true
            }
            upstream.receive(subscriber: AutoconnectLink(downstream: subscriber, parent: self))
            guard mustConnect else { return }
            let made = upstream.connect()
            let unused = lock.withLockUnchecked { () -> (any Cancellable)? in
                connecting = false
                guard subscriberCount > 0 else { return made }
                connection = made
                return nil
            }
            unused?.cancel()
        }

        /// Called when one subscriber cancels: disconnects when none are left.
        @inlinable
        func subscriberCancelled() {
            let connection = lock.withLockUnchecked { () -> (any Cancellable)? in
                subscriberCount -= 1
                guard subscriberCount == 0 else { return nil }
                defer { self.connection = nil }
                return self.connection
            }
            connection?.cancel()
        }
    }
}

/// Stands between `Autoconnect` and one subscriber, to learn when it cancels.
@usableFromInline
final class AutoconnectLink<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    /// Keeps the value path free of locks and retains.
    @usableFromInline
    let gate = DeliveryGate()
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    /// `downstream`, unretained, for deliveries, which the gate keeps apart from its release.
    @usableFromInline
    @exclusivity(unchecked)
    var borrowedDownstream: Unmanaged<Box<Downstream>>?
    @usableFromInline
    @exclusivity(unchecked)
    var parent: Publishers.Autoconnect<Upstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription

    @inlinable
    init(downstream: Downstream, parent: Publishers.Autoconnect<Upstream>) {
        let box = Box(downstream)
        self.downstream = box
        borrowedDownstream = .passUnretained(box)
        self.parent = parent
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
            guard case .awaitingSubscription = status else { return nil }
            status = .subscribed(subscription)
            return self.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard gate.enter() else { return .none }
        let demand = borrowedDownstream?._withUnsafeGuaranteedRef { $0.value.receive(input) } ?? .none
        if !gate.leave() {
            release()
        }
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let subscribed = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return false }
            status = .terminal
            parent = nil
            return true
        }
        guard subscribed else { return }
        let previous = gate.close()
        guard previous != .closed else { return }
        borrowedDownstream?._withUnsafeGuaranteedRef { $0.value.receive(completion: completion) }
        if previous == .open {
            release()
        }
    }

    /// Lets go of the subscriber, outside the lock; called once, as the gate decides.
    @inlinable
    func release() {
        let released = lock.withLockUnchecked { () -> Box<Downstream>? in
            borrowedDownstream = nil
            defer { downstream = nil }
            return downstream
        }
        withExtendedLifetime(released) {}
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Publishers.Autoconnect<Upstream>?) in
            guard case .subscribed = status else { return (.terminal, nil) }
            defer {
                status = .terminal
                parent = nil
            }
            return (status, parent)
        }
        if gate.close() == .open {
            release()
        }
        taken.0.cancel()
        taken.1?.subscriberCancelled()
    }

    @usableFromInline
    var description: String { "Autoconnect" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(self, children: ["parent": parent as Any, "downstream": downstream?.value as Any])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
