/// The policy of `retry(_:)`: every failure is retried at once, up to `retries` times (`nil`:
/// forever).
@usableFromInline
package struct ImmediateRetryPolicy<Failure: Error>: ResubscribePolicy {
    @usableFromInline
    package let retries: Int?

    @inlinable
    package init(retries: Int?) {
        self.retries = retries
    }

    @inlinable
    package static var name: String { "Retry" }

    @inlinable
    package func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure {
        guard let retries else { return .now }
        return attempt <= retries ? .now : .giveUp(.exhausted)
    }

    @inlinable
    package func startWait<Target: ResubscribeWaitTarget>(
        after error: Failure, attempt: Int, delay: Duration, waking target: Target
    )
    where Target.Failure == Failure {
        preconditionFailure("retry(_:): internal inconsistency: asked to wait, but never waits")
    }
}
