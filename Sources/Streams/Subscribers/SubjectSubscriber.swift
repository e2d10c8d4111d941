extension Publisher {
    /// Sends this publisher's values and completion into `subject`.
    ///
    /// The subject asks for values once one of its own subscribers does. Cancel the result to
    /// stop forwarding.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// let forwarding = [1, 2, 3].publisher.receive(subscriber: relay)
    /// ```
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject: subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

/// Forwards a publisher into a subject, and is the subscription the subject sees.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// Keeps the value path free of locks and retains (see ``DeliveryGate``).
    @usableFromInline
    let gate = DeliveryGate()
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subject: Downstream?
    /// `subject`, unretained, for deliveries, which the gate keeps apart from its release.
    @usableFromInline
    @exclusivity(unchecked)
    var borrowedSubject: Unmanaged<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription

    @inlinable
    init(subject: Downstream) {
        self.subject = subject
        borrowedSubject = .passUnretained(subject)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, subject != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let subject = lock.withLockUnchecked({ subject }) else {
            subscription.cancel()
            return
        }
        subject.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        // Values come only after the subscription (the publisher contract).
        guard gate.enter() else { return .none }
        borrowedSubject?._withUnsafeGuaranteedRef { $0.send(input) }
        if !gate.leave() {
            release()
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let subscribed = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return false }
            status = .terminal
            return true
        }
        guard subscribed else { return }
        let previous = gate.close()
        guard previous != .closed else { return }
        borrowedSubject?._withUnsafeGuaranteedRef { $0.send(completion: completion) }
        if previous == .open {
            release()
        }
    }

    /// Lets go of the subject, outside the lock; called once, as the gate decides.
    @inlinable
    func release() {
        let released = lock.withLockUnchecked { () -> Downstream? in
            borrowedSubject = nil
            defer { subject = nil }
            return subject
        }
        withExtendedLifetime(released) {}
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        let upstream = lock.withLockUnchecked { () -> SubscriptionStatus in
            defer { status = .terminal }
            return status
        }
        if gate.close() == .open {
            release()
        }
        upstream.cancel()
    }

    @usableFromInline
    var description: String { "Subject" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["subject": subject as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
