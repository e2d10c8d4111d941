import Foundation

/// How long `retry(_:when:backoff:scheduler:)` waits before each retry.
///
/// ```swift
/// .retry(5, backoff: .exponential(initial: .milliseconds(200), maxDelay: .seconds(10)), scheduler: DispatchQueue.main)
/// .retry(3, backoff: .constant(.seconds(1)), scheduler: DispatchQueue.main)
/// .retry(2, backoff: .immediate, scheduler: DispatchQueue.main)
/// ```
public struct Backoff: Sendable, Hashable {
    @usableFromInline
    enum Kind: Sendable, Hashable {
        case immediate
        case constant(Duration)
        case exponential(initial: Duration, multiplier: Double, maxDelay: Duration)
    }

    @usableFromInline
    let kind: Kind

    /// How the delays are randomised.
    public let jitter: Jitter

    init(kind: Kind, jitter: Jitter) {
        self.kind = kind
        self.jitter = jitter
    }

    /// No wait: retry on the scheduler's next turn.
    ///
    /// ```swift
    /// let backoff = Backoff.immediate
    /// ```
    public static var immediate: Backoff {
        Backoff(kind: .immediate, jitter: .none)
    }

    /// The same wait before every retry.
    ///
    /// ```swift
    /// let backoff = Backoff.constant(.seconds(1), jitter: .equal)
    /// ```
    public static func constant(_ delay: Duration, jitter: Jitter = .none) -> Backoff {
        precondition(delay >= .zero, "Backoff.constant requires a delay of zero or more, got \(delay)")
        return Backoff(kind: .constant(delay), jitter: jitter)
    }

    /// A wait that grows by `multiplier` with every retry, from `initial` up to `maxDelay`.
    ///
    /// ```swift
    /// let backoff = Backoff.exponential(initial: .milliseconds(100), multiplier: 3, maxDelay: .seconds(5))
    /// ```
    public static func exponential(
        initial: Duration = .milliseconds(200),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Jitter = .full
    ) -> Backoff {
        precondition(initial >= .zero, "Backoff.exponential requires an initial delay of zero or more, got \(initial)")
        precondition(
            maxDelay >= initial, "Backoff.exponential requires maxDelay (\(maxDelay)) to be at least initial (\(initial))")
        precondition(
            multiplier >= 1 && multiplier.isFinite,
            "Backoff.exponential requires a finite multiplier of 1 or more, got \(multiplier)")
        return Backoff(kind: .exponential(initial: initial, multiplier: multiplier, maxDelay: maxDelay), jitter: jitter)
    }

    /// The delay before retry number `retry` (1 for the first retry), before jitter:
    /// `min(maxDelay, initial * multiplier^(retry - 1))` for an exponential backoff, computed
    /// without overflow for any `retry`.
    ///
    /// ```swift
    /// Backoff.exponential(initial: .seconds(1)).baseDelay(forRetry: 3)   // 4 seconds
    /// ```
    public func baseDelay(forRetry retry: Int) -> Duration {
        precondition(retry >= 1, "Backoff.baseDelay(forRetry:) counts retries from 1, got \(retry)")
        switch kind {
        case .immediate:
            return .zero
        case .constant(let delay):
            return delay
        case let .exponential(initial, multiplier, maxDelay):
            let initialNanoseconds = Double(initial.nanoseconds)
            let maxNanoseconds = Double(maxDelay.nanoseconds)
            // pow saturates to infinity rather than overflowing; the cap applies before converting.
            let grown = initialNanoseconds * pow(multiplier, Double(retry - 1))
            guard grown.isFinite, grown < maxNanoseconds else { return maxDelay }
            return .nanoseconds(Int64(grown.rounded(.down)))
        }
    }

    /// The delay before retry number `retry`, with jitter drawn from `generator`.
    /// `previous` is the delay before the previous retry (for `.decorrelated`; `nil` for the
    /// first retry).
    ///
    /// ```swift
    /// var random = SeededRandomNumberGenerator(seed: 42)
    /// let wait = Backoff.exponential().delay(forRetry: 1, previous: nil, using: &random)
    /// ```
    public func delay<G: RandomNumberGenerator>(forRetry retry: Int, previous: Duration?, using generator: inout G) -> Duration {
        let base = baseDelay(forRetry: retry)
        switch jitter {
        case .none:
            return base
        case .full:
            return .nanoseconds(Int64.random(in: 0...base.nanoseconds, using: &generator))
        case .equal:
            let half = base.nanoseconds / 2
            return .nanoseconds(half + Int64.random(in: 0...(base.nanoseconds - half), using: &generator))
        case .decorrelated:
            let (initial, maxDelay) = bounds
            let low = initial.nanoseconds
            let (tripled, overflow) = (previous ?? initial).nanoseconds.multipliedReportingOverflow(by: 3)
            let high = max(low, overflow ? Int64.max : tripled)
            return .nanoseconds(min(maxDelay.nanoseconds, Int64.random(in: low...high, using: &generator)))
        }
    }

    /// The smallest and largest base delays.
    var bounds: (initial: Duration, maxDelay: Duration) {
        switch kind {
        case .immediate: (.zero, .zero)
        case .constant(let delay): (delay, delay)
        case let .exponential(initial, _, maxDelay): (initial, maxDelay)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`.
    @inlinable
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? (seconds < 0 ? .min : .max) : sum
    }
}
