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
final class WeakSubject<Wrapped: Subject>: Subject, @unchecked Sendable {
    @usableFromInline
    typealias Output = Wrapped.Output
    @usableFromInline
    typealias Failure = Wrapped.Failure

    @usableFromInline
    let gate = DeliveryGate()
    @usableFromInline
    let lock = Lock()
    /// The subject while the multicast lives: read without the lock only inside the gate, and
    /// written (once, to nil) under the lock by whoever makes the reference weak, when no value
    /// is inside the gate.
    @usableFromInline
    @exclusivity(unchecked)
    var strong: Wrapped?
    /// The same subject, called inside the gate without a retain: `strong` keeps it alive there.
    @usableFromInline
    let unretained: Unmanaged<Wrapped>
    /// The subject once the multicast has gone; guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    weak var weak: Wrapped?

    @inlinable
    init(_ subject: Wrapped) {
        strong = subject
        unretained = .passUnretained(subject)
    }

    /// The subject, if it is still there, read under the lock.
    @inlinable
    var subject: Wrapped? {
        lock.withLockUnchecked { strong ?? weak }
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
        let released = lock.withLockUnchecked { () -> Wrapped? in
            guard let strong else { return nil }
            weak = strong
            self.strong = nil
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
    func keep(upstream subscription: any Subscription) -> Int? {
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
    func forget(upstream key: Int) {
        (subject as? any UpstreamKeepingSubject)?.forget(upstream: key)
    }
}
