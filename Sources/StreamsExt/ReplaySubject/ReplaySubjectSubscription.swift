import Streams

/// One subscriber's subscription to a ``ReplaySubject``.
///
/// Its state is a ``ReplaySubjectSubscriptionStateMachine`` behind one lock; the subscription
/// performs the machine's actions outside the lock, so no lock is held while the subscriber
/// runs. Deliveries are serial: a value sent while another is being delivered (from inside the
/// subscriber, or from another thread) is queued and delivered, in order, by the call under
/// way, and `send` returns at once.
@usableFromInline
final class ReplaySubjectSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure
    @usableFromInline
    typealias StateMachine = ReplaySubjectSubscriptionStateMachine<Downstream>

    /// The key the subject keeps this subscription under, to remove it by.
    @usableFromInline
    let key: Int
    @usableFromInline
    let state: LockedState<StateMachine>

    /// A subscription whose subscribing thread (the caller) delivers until ``start()``.
    @inlinable
    init(
        downstream: Downstream, subject: ReplaySubject<Output, Failure>,
        attachment: ReplaySubjectStateMachine<Output, Failure>.Attachment
    ) {
        key = attachment.key
        state = LockedState(
            StateMachine(
                live: .init(downstream: Box(downstream), subject: subject), replay: attachment.replay,
                completion: attachment.completion))
    }

    /// Hands the subscription to the subscriber, then delivers what it has asked for meanwhile;
    /// call on the thread that made the subscription.
    @inlinable
    func start() {
        guard let downstream = state.withLock({ $0.subscriberToStart() }) else { return }
        downstream.value.receive(subscription: self)
        drain(adding: .none)
    }

    /// Delivers `value` now, queues it for the delivery under way or for a later request, or
    /// ignores it after the end.
    @inlinable
    func offer(_ value: Output) {
        switch state.withLock({ $0.offer(value) }) {
        case .none:
            return
        case .deliver(let downstream):
            drain(adding: downstream.value.receive(value))
        }
    }

    /// The subject has completed: the completion follows the values still to deliver (before
    /// the subscriber's first request) or those whose demand has been taken (after it).
    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        switch state.withLock({ $0.finish(completion) }) {
        case .none:
            return
        case .deliver(let live, let completion, _):
            // The dropped values go with the action, after the lock.
            live.downstream.value.receive(completion: completion)
        }
    }

    /// Adds the demand the subscriber returned, then delivers until nothing more is due.
    @inlinable
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        while true {
            switch state.withLock({ $0.drain(adding: additional) }) {
            case .idle:
                return
            case .value(let downstream, let value):
                additional = downstream.value.receive(value)
            case .completion(let live, let completion, _):
                live.downstream.value.receive(completion: completion)
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        switch state.withLock({ $0.request(demand) }) {
        case .none:
            return
        case .deliver(let downstream, let value):
            drain(adding: downstream.value.receive(value))
        }
    }

    /// Ends the subscription: the subject forgets it, and the subscriber, the subject and the
    /// values still queued are released here, outside the lock.
    @inlinable
    func cancel() {
        guard let remains = state.withLock({ $0.cancel() }) else { return }
        remains.live.subject.remove(key)
        withExtendedLifetime(remains) {}
    }

    @usableFromInline
    var description: String { "ReplaySubject" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, demand) = state.withLock { state -> (Any?, Subscribers.Demand) in
            (state.subscriberToStart()?.value, state.demand)
        }
        return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
