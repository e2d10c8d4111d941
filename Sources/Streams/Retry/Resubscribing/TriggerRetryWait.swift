/// The wait of `retry(on:)`: subscribes to the trigger and asks it for one value. The value
/// ends the wait (and the trigger is cancelled); a completion first abandons it.
@usableFromInline
struct TriggerRetryWait<Trigger: Publisher>: ResubscribeWait {
    @usableFromInline
    let trigger: Trigger

    @inlinable
    init(trigger: Trigger) {
        self.trigger = trigger
    }

    @inlinable
    func start<Target: ResubscribeWaitTarget>(waking target: Target, attempt: Int) {
        trigger.receive(subscriber: Listener(target: target, attempt: attempt))
    }

    /// Reports the trigger's events to the waiting subscription.
    @usableFromInline
    struct Listener<Target: ResubscribeWaitTarget>: Subscriber, CustomStringConvertible {
        @usableFromInline
        typealias Input = Trigger.Output
        @usableFromInline
        typealias Failure = Trigger.Failure

        @usableFromInline
        let target: Target
        @usableFromInline
        let attempt: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(target: Target, attempt: Int) {
            self.target = target
            self.attempt = attempt
        }

        @inlinable
        func receive(subscription: any Subscription) {
            if target.waitStarted(subscription, attempt: attempt) {
                subscription.request(.max(1))
            }
        }

        @inlinable
        func receive(_ input: Trigger.Output) -> Subscribers.Demand {
            target.waitEnded(attempt: attempt)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Trigger.Failure>) {
            target.waitAbandoned(attempt: attempt)
        }

        @usableFromInline
        var description: String { "RetryOn" }
    }
}
