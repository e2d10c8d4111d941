/// What a multicast's connections feed: it stands for the multicast's subject without keeping it
/// alive once the multicast has gone, as in Combine, where releasing a connected multicast (and
/// so its subject) lets the subject go. After that, values and completions reach the subject
/// only while something else keeps it, and a subscription arriving once it is gone is cancelled.
///
/// While the multicast lives the subject is held strongly, so that a value costs no weak load
/// (a weak reference would also move every retain and release of the subject to its slow path):
/// a value passes a ``DeliveryGate`` and calls the subject directly. When the multicast goes
/// away it closes the gate and the reference is made weak, by the multicast's deinit or, when a
/// value is being delivered at that moment, by that delivery as it leaves. Values that find the
/// gate closed (or another value inside it) read the reference under the lock.
@usableFromInline
// Unchecked: `unretained` reaches the (non-Sendable) subject without the lock, inside the gate.
final class WeakSubject<Wrapped: Subject>: Subject, @unchecked Sendable {
    @usableFromInline
    typealias Output = Wrapped.Output
    @usableFromInline
    typealias Failure = Wrapped.Failure

    /// The references to the subject: strong while the multicast lives, weak once it has gone.
    @usableFromInline
    struct References {
        /// The subject while the multicast lives: set to nil (once) by whoever makes the reference
        /// weak, when no value is inside the gate.
        @usableFromInline
        var strong: Wrapped?
        /// The subject once the multicast has gone.
        @usableFromInline
        weak var weak: Wrapped?

        @inlinable
        init(strong: Wrapped) {
            self.strong = strong
        }
    }

    @usableFromInline
    let gate = DeliveryGate()
    @usableFromInline
    let references: LockedState<References>
    /// The same subject, called inside the gate without a retain: `references.strong` keeps it
    /// alive there.
    @usableFromInline
    let unretained: Unmanaged<Wrapped>

    @inlinable
    init(_ subject: Wrapped) {
        references = LockedState(References(strong: subject))
        unretained = .passUnretained(subject)
    }

    /// The subject, if it is still there, read under the lock.
    @inlinable
    var subject: Wrapped? {
        references.withLock { $0.strong ?? $0.weak }
    }

    /// The multicast has gone: from now on the subject is held weakly.
    @usableFromInline
    func multicastWentAway() {
        if gate.close() != .delivering {
            makeWeak()
        }
    }

    /// Moves the subject from the strong reference to the weak one; the strong reference is
    /// released outside the lock.
    @usableFromInline
    func makeWeak() {
        let released = references.withLock { (references) -> Wrapped? in
            guard let strong = references.strong else { return nil }
            references.weak = strong
            references.strong = nil
            return strong
        }
        withExtendedLifetime(released) {}
    }

    @inlinable
    func send(_ value: Output) {
        guard gate.enter() else {
            subject?.send(value)
            return
        }
        unretained._withUnsafeGuaranteedRef { $0.send(value) }
        if !gate.leave() {
            makeWeak()
        }
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        subject?.send(completion: completion)
    }

    @inlinable
    func send(subscription: any Subscription) {
        guard let subject else {
            subscription.cancel()
            return
        }
        subject.send(subscription: subscription)
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        guard let subject else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        subject.receive(subscriber: subscriber)
    }
}

extension WeakSubject: UpstreamKeepingSubject {
    /// Hands `subscription` to the subject, if it is still there (otherwise cancels it); the key
    /// is the subject's, when it can forget a subscription.
    @inlinable
    package func keep(upstream subscription: any Subscription) -> Int? {
        guard let subject else {
            subscription.cancel()
            return nil
        }
        guard let keeper = subject as? any UpstreamKeepingSubject else {
            subject.send(subscription: subscription)
            return nil
        }
        return keeper.keep(upstream: subscription)
    }

    @inlinable
    package func forget(upstream key: Int) {
        (subject as? any UpstreamKeepingSubject)?.forget(upstream: key)
    }
}
