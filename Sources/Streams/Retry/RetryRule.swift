/// The selective retry's decision once `when` has accepted a failure: steps 2 to 5 of
/// `retry(_:when:backoff:scheduler:)` (the count, the wait and `maxElapsed`, the server's hint
/// against `retryAfterLimit`, the budget), in that order. The publisher's policy and
/// StreamsResilience's `async` face both decide with it, so that a failure is judged the same
/// way whichever face meets it.
@usableFromInline
package enum RetryRule {
    /// What follows a failure that `when` accepted.
    @usableFromInline
    package enum Verdict {
        /// Deliver the failure, for this reason.
        case giveUp(RetryGiveUpReason)
        /// Wait `wait` (the larger of the backoff's delay and the hint), then try again;
        /// `backoffDelay` is the backoff's own delay (the next decision's `previous`) and `cost`
        /// the tokens taken from the budget (given back if the retry is dropped).
        case retry(wait: Duration, backoffDelay: Duration, cost: Int)
    }

    /// Judges `error`, which ended the attempt before retry number `retry` (1 for the first
    /// retry). `startsTooLate(wait)` tells whether a retry after `wait` would start later than
    /// `maxElapsed` allows (false when there is no `maxElapsed`).
    @inlinable
    package static func judge<Failure: Error, G: RandomNumberGenerator>(
        _ error: Failure, retry: Int, maxRetries: Int, backoff: Backoff, previous: Duration?, using random: inout G,
        retryAfterLimit: Duration, budget: RetryBudget?, startsTooLate: (Duration) -> Bool
    ) -> Verdict {
        guard retry <= maxRetries else { return .giveUp(.exhausted) }
        let hint = ((error as Any) as? any RetryAfterProviding)?.retryAfter.map { max($0, .zero) }
        let backoffDelay = backoff.delay(forRetry: retry, previous: previous, using: &random)
        let wait = max(hint ?? .zero, backoffDelay)
        if startsTooLate(wait) { return .giveUp(.deadline) }
        if let hint, hint > retryAfterLimit {
            return .giveUp(reason(for: error, otherwise: .retryAfterOverLimit))
        }
        // Last, so that tokens go only to retries that will happen.
        var cost = 0
        if let budget {
            cost = budget.cost(after: error)
            guard budget.withdraw(cost) else { return .giveUp(.budgetEmpty) }
        }
        return .retry(wait: wait, backoffDelay: backoffDelay, cost: cost)
    }

    /// Why a retry refused by `when` or by its hint is not made: a circuit's refusal and a
    /// passed deadline are told as such.
    @inlinable
    package static func reason(for error: some Error, otherwise reason: RetryGiveUpReason) -> RetryGiveUpReason {
        switch ResilienceErrorKind.of(error) {
        case .circuitOpen: .circuitOpen
        case .deadline: .deadline
        case .timeout, .other: reason
        }
    }
}
