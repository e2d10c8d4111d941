
/// The subscription behind `receive(on:)` and `delay(for:scheduler:)`: the subscription goes
/// downstream at once, requests and cancellation go straight upstream, and every value and the
/// completion are handed to `reschedule`, which runs them later on a scheduler (on its next turn
/// for `receive(on:)`, after the interval for `delay`). Demand the downstream returns from a
/// value is forwarded upstream.
@usableFromInline
final class RescheduledSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
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
        reschedule { [self] in
            guard let (downstream, upstream) = lock.withLockUnchecked({ () -> (Box<Downstream>, any Subscription)? in
                guard case .subscribed(let upstream) = status, let downstream else { return nil }
                return (downstream, upstream)
            }) else { return }
            let demand = downstream.value.receive(input)
            if demand > 0 { upstream.request(demand) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        reschedule { [self] in
            let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
                guard case .subscribed = status else { return nil }
                status = .terminal
                defer { self.downstream = nil }
                return self.downstream
            }
            downstream?.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { status }.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?) in
            defer {
                status = .terminal
                downstream = nil
            }
            return (status, downstream)
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
