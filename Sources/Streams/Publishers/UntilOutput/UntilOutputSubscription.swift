/// The subscription behind `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`: it watches a
/// second publisher, the trigger, for its first value.
///
/// Before the trigger fires, `.prefix` passes values on and `.drop` drops them (asking upstream
/// for one more each time); when it fires, `.prefix` finishes and `.drop` starts passing values.
/// A failure of the trigger fails the stream when `mapTriggerFailure` is given, and is ignored
/// otherwise; the trigger finishing without a value changes nothing. A completion that arrives
/// while a value is being delivered waits for that delivery to return, so the subscriber is
/// never called concurrently.
@usableFromInline
final class UntilOutputSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    enum Mode {
        case prefix, drop
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let mode: Mode
    @usableFromInline
    let mapTriggerFailure: ((Trigger.Failure) -> Downstream.Failure)?
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var upstream = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var trigger = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var triggered = false
    @usableFromInline
    @exclusivity(unchecked)
    var delivering = false
    /// A completion that arrived during a delivery.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(
        name: String, mode: Mode, downstream: Downstream,
        mapTriggerFailure: ((Trigger.Failure) -> Downstream.Failure)?
    ) {
        self.name = name
        self.mode = mode
        self.downstream = Box(downstream)
        self.mapTriggerFailure = mapTriggerFailure
    }

    /// Subscribes to the trigger, then to the upstream.
    @inlinable
    func start(upstream: Upstream, trigger: Trigger) {
        trigger.receive(subscriber: TriggerLink(parent: self))
        upstream.receive(subscriber: UpstreamLink(parent: self))
    }

    // MARK: Upstream

    @inlinable
    func receiveUpstream(subscription: any Subscription) {
        let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
            guard !terminated, case .awaitingSubscription = upstream else { return nil }
            upstream = .subscribed(subscription)
            return self.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receiveUpstream(_ input: Upstream.Output) -> Subscribers.Demand {
        let step = lock.withLockUnchecked { () -> ValueStep in
            guard !terminated, let downstream else { return .ignore }
            if mode == .drop && !triggered { return .drop }
            delivering = true
            return .deliver(downstream)
        }
        switch step {
        case .ignore:
            return .none
        case .drop:
            return .max(1)  // dropped: ask for a replacement
        case .deliver(let downstream):
            let demand = downstream.value.receive(input)
            deliveryEnded()
            return demand
        }
    }

    /// What `receiveUpstream(_:)` does with a value once it has left the lock.
    @usableFromInline
    enum ValueStep {
        case ignore, drop
        case deliver(Box<Downstream>)
    }

    @inlinable
    func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) {
        end(with: completion, cancelUpstream: false)
    }

    // MARK: Trigger

    @inlinable
    func receiveTrigger(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard !terminated, case .awaitingSubscription = trigger else { return false }
            trigger = .subscribed(subscription)
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    func receiveTrigger() {
        switch mode {
        case .prefix:
            end(with: .finished, cancelUpstream: true)
        case .drop:
            let trigger = lock.withLockUnchecked { () -> SubscriptionStatus in
                triggered = true
                defer { self.trigger = .terminal }
                return self.trigger
            }
            trigger.cancel()
        }
    }

    @inlinable
    func receiveTrigger(completion: Subscribers.Completion<Trigger.Failure>) {
        lock.withLockUnchecked { trigger = .terminal }
        guard case .failure(let error) = completion, let mapTriggerFailure else { return }
        end(with: .failure(mapTriggerFailure(error)), cancelUpstream: true)
    }

    // MARK: Ending

    /// Sends `completion` (now, or when the delivery under way returns) and cancels the trigger,
    /// and the upstream if `cancelUpstream`.
    @inlinable
    func end(with completion: Subscribers.Completion<Downstream.Failure>, cancelUpstream: Bool) {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, SubscriptionStatus, Box<Downstream>?)? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                upstream = .terminal
                trigger = .terminal
            }
            guard !delivering else {
                pendingCompletion = completion
                return (cancelUpstream ? upstream : .terminal, trigger, nil)
            }
            defer { downstream = nil }
            return (cancelUpstream ? upstream : .terminal, trigger, downstream)
        }
        guard let (upstream, trigger, downstream) = taken else { return }
        upstream.cancel()
        trigger.cancel()
        downstream?.value.receive(completion: completion)
    }

    /// Ends a delivery, and sends the completion that waited for it.
    @inlinable
    func deliveryEnded() {
        let pending = lock.withLockUnchecked { () -> (Box<Downstream>, Subscribers.Completion<Downstream.Failure>)? in
            delivering = false
            guard let completion = pendingCompletion, let downstream else { return nil }
            pendingCompletion = nil
            self.downstream = nil
            return (downstream, completion)
        }
        guard let (downstream, completion) = pending else { return }
        downstream.value.receive(completion: completion)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { upstream }.request(demand)
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, SubscriptionStatus, Box<Downstream>?) in
            terminated = true
            pendingCompletion = nil
            defer {
                upstream = .terminal
                trigger = .terminal
                downstream = nil
            }
            return (upstream, trigger, downstream)
        }
        taken.0.cancel()
        taken.1.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the upstream on behalf of the parent.
    @usableFromInline
    struct UpstreamLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: UntilOutputSubscription

        /// The parent's: as in Combine, the upstream sees the one inner object.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: UntilOutputSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) { parent.receiveUpstream(subscription: subscription) }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand { parent.receiveUpstream(input) }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            parent.receiveUpstream(completion: completion)
        }

        @usableFromInline
        var description: String { parent.name }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// Subscribes to the trigger on behalf of the parent.
    @usableFromInline
    struct TriggerLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: UntilOutputSubscription

        /// The parent's: as in Combine, the upstream sees the one inner object.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: UntilOutputSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) { parent.receiveTrigger(subscription: subscription) }

        @inlinable
        func receive(_ input: Trigger.Output) -> Subscribers.Demand {
            parent.receiveTrigger()
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Trigger.Failure>) { parent.receiveTrigger(completion: completion) }

        @usableFromInline
        var description: String { parent.name }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
