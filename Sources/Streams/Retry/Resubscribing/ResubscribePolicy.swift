/// What a ``ResubscribingSubscription`` asks after an attempt fails: give up, subscribe again
/// now, or wait first (on a scheduler, or for a trigger).
///
/// `retry(_:)`, the selective `retry(_:when:backoff:scheduler:)` and `retry(on:)` share one
/// subscription and differ only in their policy. The policy is a value: the state machine keeps
/// it while attempts run and hands it out for the one decision in progress, so `decide` may
/// mutate it without a lock and call user code.
@usableFromInline
protocol ResubscribePolicy {
    associatedtype Failure: Error
    /// How the policy waits before the next attempt.
    associatedtype Wait: ResubscribeWait

    /// The subscription's description: the operator's name.
    static var name: String { get }

    /// The budget that each attempt's first value or `.finished` refills, if any.
    var budget: RetryBudget? { get }

    /// Judges the failure that ended an attempt. Runs outside the lock and never concurrently
    /// with itself.
    mutating func decide(after error: Failure) -> ResubscribeDecision<Wait>
}

extension ResubscribePolicy {
    @inlinable
    var budget: RetryBudget? { nil }
}
