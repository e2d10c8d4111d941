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
///
/// Unchecked `Sendable`: values reach the subject, which need not be `Sendable`, through
/// `borrowedSubject`, whose lifetime the gate guarantees.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// What the lock guards.
    @usableFromInline
    struct State {
        /// The subject, until the gate decides to release it.
        @usableFromInline
        var subject: Downstream?
        @usableFromInline
        var status = SubscriptionStatus.awaitingSubscription
        /// The key the subject keeps this subscription under, once it has said it can forget it.
        @usableFromInline
        var kept: Int?

        @inlinable
        init(subject: Downstream) {
            self.subject = subject
        }

        /// Takes what ``SubjectSubscriber/forget(_:)`` needs, if the subject keeps this
        /// subscription under a key; call as the subscription ends.
        @inlinable
        mutating func takeKeeper() -> Keeper? {
            guard let key = kept, let subject else { return nil }
            kept = nil
            return Keeper(subject: subject, key: key)
        }

        /// The upstream completed: ignored unless subscribed; otherwise the subscription ends.
        @inlinable
        mutating func receiveCompletion() -> CompletionAction {
            guard case .subscribed = status else { return .ignore }
            status = .terminated
            return .complete(subject, forgetting: takeKeeper())
        }

        /// The subscription is cancelled: it ends, whatever its status.
        @inlinable
        mutating func cancel() -> CancelAction {
            defer { status = .terminated }
            return CancelAction(upstream: status, forgetting: takeKeeper())
        }
    }

    /// What ``receive(completion:)`` does once the lock is released.
    @usableFromInline
    enum CompletionAction {
        /// Not subscribed (before the subscription, or already ended): nothing.
        case ignore
        /// Close the gate, send the completion to the subject (held here: a delivery under way
        /// on another thread lets go of it when it leaves, maybe while the completion is still
        /// being sent), and tell the subject to forget this subscription if it keeps it.
        case complete(Downstream?, forgetting: Keeper?)
    }

    /// What ``cancel()`` does once the lock is released: cancel `upstream` (a status, so that
    /// nothing is cancelled before the subscription or after the end) and tell the subject to
    /// forget this subscription if it keeps it.
    @usableFromInline
    struct CancelAction {
        @usableFromInline
        let upstream: SubscriptionStatus
        @usableFromInline
        let forgetting: Keeper?

        @inlinable
        init(upstream: SubscriptionStatus, forgetting: Keeper?) {
            self.upstream = upstream
            self.forgetting = forgetting
        }
    }

    /// Keeps the value path free of locks and retains (see ``DeliveryGate``).
    @usableFromInline
    let gate = DeliveryGate()
    @usableFromInline
    let state: LockedState<State>
    /// The subject, unretained, for deliveries. Not guarded by the lock: it never changes, and
    /// the gate keeps every delivery before the release of the subject, after which it is never
    /// used. The completion is sent through a reference taken under the lock instead: it may
    /// come from another thread while a delivery is under way, which releases the subject when
    /// it leaves.
    @usableFromInline
    let borrowedSubject: Unmanaged<Downstream>

    @inlinable
    init(subject: Downstream) {
        state = LockedState(State(subject: subject))
        borrowedSubject = .passUnretained(subject)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = state.withLock { state in
            guard case .awaitingSubscription = state.status, state.subject != nil else { return false }
            state.status = .subscribed(subscription)
            return true
        }
        guard accepted, let subject = state.withLock({ $0.subject }) else {
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
        let ended = state.withLock { state in
            guard case .subscribed = state.status else { return true }
            state.kept = key
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
        borrowedSubject._withUnsafeGuaranteedRef { $0.send(input) }
        if !gate.leave() {
            release()
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard case .complete(let subject, let forgetting) = state.withLock({ $0.receiveCompletion() }) else { return }
        let previous = gate.close()
        if previous != .closed {
            subject?.send(completion: completion)
            if previous == .open {
                release()
            }
        }
        forget(forgetting)
    }

    /// The subject and the key it keeps this subscription under, to tell it that the
    /// subscription ended.
    @usableFromInline
    struct Keeper {
        @usableFromInline
        let subject: Downstream
        @usableFromInline
        let key: Int

        @inlinable
        init(subject: Downstream, key: Int) {
            self.subject = subject
            self.key = key
        }
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
        let released = state.withLock { state in
            defer { state.subject = nil }
            return state.subject
        }
        withExtendedLifetime(released) {}
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.status }.request(demand)
    }

    @inlinable
    func cancel() {
        let action = state.withLock { $0.cancel() }
        if gate.close() == .open {
            release()
        }
        action.upstream.cancel()
        forget(action.forgetting)
    }

    @usableFromInline
    var description: String { "Subject" }

    @usableFromInline
    var customMirror: Mirror {
        let subject = state.withLock { $0.subject }
        return Mirror(self, children: ["subject": subject as Any])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
