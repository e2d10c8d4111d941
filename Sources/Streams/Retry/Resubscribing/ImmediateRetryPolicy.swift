/// The policy of `retry(_:)`: every failure is retried at once, up to `retries` times (`nil`:
/// forever).
@usableFromInline
struct ImmediateRetryPolicy<Failure: Error>: ResubscribePolicy {
    @usableFromInline
    let retries: Int?

    @inlinable
    init(retries: Int?) {
        self.retries = retries
    }

    @inlinable
    static var name: String { "Retry" }

    @inlinable
    func decide<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, checking target: Target)
        -> ResubscribeDecision
    where Target.Failure == Failure {
        guard let retries else { return .now }
        return attempt <= retries ? .now : .giveUp(.exhausted)
    }

    @inlinable
    func startWait<Target: ResubscribeWaitTarget>(after error: Failure, attempt: Int, delay: Duration, waking target: Target)
    where Target.Failure == Failure {
        preconditionFailure("retry(_:): internal inconsistency: asked to wait, but never waits")
    }
}
