import Streams

/// The seeded dice of the chaos operators: which calls get a fault, a latency or an outcome is
/// drawn from one sequence that depends only on the seed, so a test that injects chaos at a rate
/// sees the same calls hit on every run.
///
/// Share one generator between the operators of a test to get one sequence of draws in the
/// order the calls are made. A rate of 0 or 1 draws nothing, so injecting with certainty never
/// shifts the sequence of the other operators. Thread-safe.
///
/// ```swift
/// let chaos = ChaosGenerator(seed: 7)
/// let flaky = backend.injectFault(.outage, rate: 0.3, using: chaos)
/// ```
public final class ChaosGenerator: Sendable {
    private let random: LockedState<SeededRandomNumberGenerator>

    /// Makes a generator whose draws depend only on `seed`.
    ///
    /// ```swift
    /// let chaos = ChaosGenerator(seed: 42)
    /// ```
    public init(seed: UInt64) {
        random = LockedState(SeededRandomNumberGenerator(seed: seed))
    }

    /// True with probability `rate` (clamped to 0...1); draws only when `rate` is strictly
    /// between 0 and 1.
    ///
    /// ```swift
    /// if chaos.roll(0.25) { print("this call is hit") }
    /// ```
    public func roll(_ rate: Double) -> Bool {
        if rate >= 1 { return true }
        if !(rate > 0) { return false }
        return random.withLock { Double.random(in: 0..<1, using: &$0) } < rate
    }

    /// A duration drawn uniformly from `range`.
    ///
    /// ```swift
    /// let latency = chaos.duration(in: .milliseconds(50)...(.milliseconds(500)))
    /// ```
    public func duration(in range: ClosedRange<Duration>) -> Duration {
        let low = range.lowerBound / .nanoseconds(1)
        let high = range.upperBound / .nanoseconds(1)
        guard high > low else { return range.lowerBound }
        return .nanoseconds(Int64(random.withLock { Double.random(in: low...high, using: &$0) }.rounded()))
    }
}
