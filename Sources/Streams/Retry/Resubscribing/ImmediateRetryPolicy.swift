/// The policy of `retry(_:)`: every failure is retried at once, `remaining` more times (`nil`:
/// forever).
@usableFromInline
struct ImmediateRetryPolicy<Failure: Error>: ResubscribePolicy {
    @usableFromInline
    var remaining: Int?

    @inlinable
    init(retries: Int?) {
        remaining = retries
    }

    @inlinable
    static var name: String { "Retry" }

    @inlinable
    mutating func decide(after error: Failure) -> ResubscribeDecision<Never> {
        guard let left = remaining else { return .now }
        guard left > 0 else { return .giveUp }
        remaining = left - 1
        return .now
    }
}
