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
///
/// A subject that can let go of an upstream subscription before it goes away
/// (``UpstreamKeepingSubject``) is told when this one completes or is cancelled, so that a
/// subject fed by many successive connections (a `share()` that reconnects) keeps none of the
/// ended ones.
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
    /// The key the subject keeps this subscription under, once it has said it can forget it.
    @usableFromInline
    @exclusivity(unchecked)
    var kept: Int?

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
        guard let keeper = subject as? any UpstreamKeepingSubject else {
            subject.send(subscription: self)
            return
        }
        guard let key = keeper.keep(upstream: self) else { return }
        // Completed or cancelled meanwhile (maybe inside `keep`, by the request it makes): the
        // subject lets go of this subscription now.
        let ended = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return true }
            kept = key
            return false
        }
        if ended {
            keeper.forget(upstream: key)
        }
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
        let (subscribed, forgetting) = lock.withLockUnchecked { () -> (Bool, Keeper?) in
            guard case .subscribed = status else { return (false, nil) }
            status = .terminal
            return (true, takeKeeper())
        }
        guard subscribed else { return }
        let previous = gate.close()
        if previous != .closed {
            borrowedSubject?._withUnsafeGuaranteedRef { $0.send(completion: completion) }
            if previous == .open {
                release()
            }
        }
        forget(forgetting)
    }

    /// The subject and the key it keeps this subscription under, to tell it that the
    /// subscription ended.
    @usableFromInline
    typealias Keeper = (subject: Downstream, key: Int)

    /// Takes what ``forget(_:)`` needs, if the subject keeps this subscription under a key;
    /// call with the lock held, as the subscription ends.
    @inlinable
    func takeKeeper() -> Keeper? {
        guard let key = kept, let subject else { return nil }
        kept = nil
        return (subject, key)
    }

    /// Tells the subject that this subscription ended; call outside the lock.
    @inlinable
    func forget(_ keeper: Keeper?) {
        guard let keeper else { return }
        (keeper.subject as? any UpstreamKeepingSubject)?.forget(upstream: keeper.key)
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
        let (upstream, forgetting) = lock.withLockUnchecked { () -> (SubscriptionStatus, Keeper?) in
            defer { status = .terminal }
            return (status, takeKeeper())
        }
        if gate.close() == .open {
            release()
        }
        upstream.cancel()
        forget(forgetting)
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
