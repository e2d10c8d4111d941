import Streams

/// The policy of `retry(on:)`: every failure waits for the first value of the trigger made from
/// it; a trigger that completes without one gives up with the failure.
@usableFromInline
struct TriggerRetryPolicy<UpstreamFailure: Error, Trigger: Publisher>: ResubscribePolicy {
    @usableFromInline
    typealias Failure = UpstreamFailure

    @usableFromInline
    let trigger: (UpstreamFailure) -> Trigger

    @inlinable
    init(trigger: @escaping (UpstreamFailure) -> Trigger) {
        self.trigger = trigger
    }

    @inlinable
    static var name: String { "RetryOn" }

    @inlinable
    func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure {
        .wait(.zero)
    }

    /// Subscribes to the trigger made from `error` and asks it for one value; a trigger made
    /// while the stream was cancelled is not subscribed to.
    @inlinable
    func startWait<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, delay: Duration, waking target: Target)
    where Target.Failure == Failure {
        let trigger = trigger(error)
        guard target.mayProceed(afterFailureOf: attempt) else { return }
        trigger.receive(subscriber: Listener(target: target, attempt: attempt, error: error))
    }

    /// Reports the trigger's events to the waiting subscription: its value ends the wait (and
    /// the trigger is cancelled); a completion first abandons it.
    @usableFromInline
    struct Listener<Target: ResubscribeWaitTarget>: Subscriber, CustomStringConvertible
    where Target.Failure == UpstreamFailure {
        @usableFromInline
        typealias Input = Trigger.Output
        @usableFromInline
        typealias Failure = Trigger.Failure

        @usableFromInline
        let target: Target
        @usableFromInline
        let attempt: Int
        @usableFromInline
        let error: UpstreamFailure
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(target: Target, attempt: Int, error: UpstreamFailure) {
            self.target = target
            self.attempt = attempt
            self.error = error
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
            target.waitAbandoned(attempt: attempt, error: error)
        }

        @usableFromInline
        var description: String { "RetryOn" }
    }
}
