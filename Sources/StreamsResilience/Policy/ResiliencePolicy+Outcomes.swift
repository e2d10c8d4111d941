import Streams

extension ResiliencePolicy {
    /// Whether the retry retries an attempt that failed with `error` (as either face has it: a
    /// ``ResilienceError`` is seen through for ``retryWhen``): its category is one of the
    /// retry's `retryOn`, or ``retryWhen`` handles it; and never a timeout of a call that is not
    /// safe to repeat. Both faces ask this.
    func retries(failure error: any Error, isSafeToRepeat: Bool) -> Bool {
        guard let retry else { return false }
        let handled = retry.retryOn.contains(error.resolveCategory()) || retryWhen?(.failure(Self.seenThrough(error))) == true
        return handled && !ResilienceErrorKind.forbidsRepeat(error, isSafeToRepeat: isSafeToRepeat)
    }

    /// Whether the retry retries an attempt that returned `value`: ``retryWhen`` handles it.
    /// Both faces ask this, and only when ``retryWhen`` is set.
    func retries(value: Any) -> Bool {
        retryWhen?(.value(value)) ?? false
    }

    /// Whether the circuit breaker counts an attempt that returned `value` as failed:
    /// ``circuitBreakerWhen`` handles it. Both faces ask this, and only when it is set.
    func breakerCounts(value: Any) -> Bool {
        circuitBreakerWhen?(.value(value)) ?? false
    }

    /// `error` as the policy's closures see it: a ``ResilienceError`` unwrapped.
    static func seenThrough(_ error: any Error) -> any Error {
        (error as? any ResilienceErrorUnwrapping)?.unwrapped ?? error
    }
}
