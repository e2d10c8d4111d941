/// The subscription behind `receive(on:)` and `delay(for:scheduler:)`: the subscription goes
/// downstream at once, requests and cancellation go straight upstream, and every value and the
/// completion are queued in arrival order and handed to `reschedule`, which runs an action later
/// on a scheduler (on its next turn for `receive(on:)`, after the interval for `delay`). Demand
/// the downstream returns from a value is forwarded upstream.
///
/// Each action delivers the oldest queued event, not its own, and only one action delivers at a
/// time (another that runs meanwhile leaves its event to it): on a concurrent scheduler such as
/// `DispatchQueue.global()` events still arrive one at a time and in order, and the completion
/// never overtakes a value. On a serial scheduler every action delivers its own event. Scheduled
/// actions hold the subscription strongly, so the pipeline lives until they have run.
@usableFromInline
final class RescheduledSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    enum Event {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    /// What one turn of the delivery loop does, decided under the lock and done outside it.
    @usableFromInline
    enum Step {
        case value(Downstream.Input, Box<Downstream>, any Subscription)
        case completion(Subscribers.Completion<Downstream.Failure>, Box<Downstream>)
        case drop
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let reschedule: (@escaping () -> Void) -> Void
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    /// Events not yet delivered, oldest at `head`.
    @usableFromInline
    @exclusivity(unchecked)
    var events: [Event] = []
    @usableFromInline
    @exclusivity(unchecked)
    var head = 0
    /// Actions that have run: that many of the oldest events are due.
    @usableFromInline
    @exclusivity(unchecked)
    var due = 0
    /// An action is delivering; others that run meanwhile leave their event to it.
    @usableFromInline
    @exclusivity(unchecked)
    var delivering = false
    /// The completion is queued: later events are ignored.
    @usableFromInline
    @exclusivity(unchecked)
    var completionQueued = false

    @inlinable
    init(name: String, downstream: Downstream, reschedule: @escaping (@escaping () -> Void) -> Void) {
        self.name = name
        self.downstream = Box(downstream)
        self.reschedule = reschedule
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let downstream = lock.withLockUnchecked({ downstream }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        enqueue(.value(input))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        enqueue(.completion(completion))
    }

    /// Queues `event` and schedules an action for it; ignored before the subscription, after
    /// the completion and after cancel.
    @inlinable
    func enqueue(_ event: Event) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status, !completionQueued else { return false }
            if case .completion = event { completionQueued = true }
            events.append(event)
            return true
        }
        if accepted {
            reschedule { [self] in deliverDueEvents() }
        }
    }

    /// One scheduled action has run: deliver the due events, unless another action already is.
    @inlinable
    func deliverDueEvents() {
        var step = lock.withLockUnchecked { () -> Step? in
            due += 1
            guard !delivering else { return nil }
            delivering = true
            return nextStep()
        }
        while let current = step {
            switch current {
            case .value(let input, let downstream, let upstream):
                let demand = downstream.value.receive(input)
                if demand > 0 { upstream.request(demand) }
            case .completion(let completion, let downstream):
                downstream.value.receive(completion: completion)
            case .drop:
                break
            }
            step = lock.withLockUnchecked { nextStep() }
        }
    }

    /// Takes the oldest due event, or ends the delivery. Called under the lock.
    @inlinable
    func nextStep() -> Step? {
        guard due > 0, head < events.count else {
            delivering = false
            return nil
        }
        due -= 1
        let event = events[head]
        head += 1
        if head == events.count {
            events.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= events.count {
            events.removeFirst(head)
            head = 0
        }
        switch event {
        case .value(let input):
            guard case .subscribed(let upstream) = status, let downstream else { return .drop }
            return .value(input, downstream, upstream)
        case .completion(let completion):
            guard case .subscribed = status, let downstream else { return .drop }
            status = .terminal
            self.downstream = nil
            return .completion(completion, downstream)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?, [Event]) in
            defer {
                status = .terminal
                downstream = nil
                events = []
                head = 0
            }
            return (status, downstream, events)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
