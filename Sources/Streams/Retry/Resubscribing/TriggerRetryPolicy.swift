/// The policy of `retry(on:)`: every failure waits for the first value of the trigger made from
/// it; a trigger that completes without one gives up.
@usableFromInline
struct TriggerRetryPolicy<Failure: Error, Trigger: Publisher>: ResubscribePolicy {
    @usableFromInline
    let trigger: (Failure) -> Trigger

    @inlinable
    init(trigger: @escaping (Failure) -> Trigger) {
        self.trigger = trigger
    }

    @inlinable
    static var name: String { "RetryOn" }

    @inlinable
    mutating func decide(after error: Failure) -> ResubscribeDecision<TriggerRetryWait<Trigger>> {
        .wait(TriggerRetryWait(trigger: trigger(error)))
    }
}
