import Foundation
import Streams

extension CircuitBreaker {
    /// When a ``CircuitBreaker`` opens, for how long, and how it closes again.
    ///
    /// The defaults are Polly v8's: the circuit opens when at least 10% of the calls failed over
    /// the last 30 seconds, provided at least 100 calls were made in that time; it then stays
    /// open 5 seconds, after which one probe call decides whether it closes or opens again.
    /// Slow calls count as successes unless `slowCallThreshold` is set; they then count as failures,
    /// or apart from them with a `slowCallRatio` of their own (resilience4j's slow-call rate).
    ///
    /// ```swift
    /// var configuration = CircuitBreaker.Configuration()
    /// configuration.window = .count(20)               // the last 20 calls, as resilience4j can
    /// configuration.minimumThroughput = 10
    /// configuration.failureRatio = 0.5
    /// configuration.slowCallThreshold = .seconds(2)   // a call slower than this counts as failed
    /// let breaker = CircuitBreaker(configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The share of failed calls in the window at or above which the circuit opens, in
        /// (0, 1]. Default 0.1.
        public var failureRatio: Double
        /// The calls whose outcomes are sampled. Default: the last 30 seconds.
        public var window: Window
        /// The fewest calls in the window for the circuit to open at all. Default 100.
        public var minimumThroughput: Int
        /// How long the circuit stays open the first time. Default 5 seconds.
        public var breakDuration: Duration
        /// How much longer each break is than the previous one, when the circuit opens again
        /// without having closed in between (a failed probe). Default 1: every break lasts
        /// `breakDuration`.
        public var breakDurationMultiplier: Double
        /// The longest break when it grows. Default 5 minutes.
        public var maximumBreakDuration: Duration
        /// How many probe calls a half-open circuit lets through; it closes once they all
        /// succeed, and opens again at the first that fails. Default 1.
        public var halfOpenProbes: Int
        /// A call whose first value (or completion) comes this late or later is slow. Without
        /// a `slowCallRatio` a slow call counts as failed, whatever its outcome. Default nil:
        /// slowness is not counted.
        public var slowCallThreshold: Duration?
        /// The share of slow calls in the window at or above which the circuit opens, in
        /// (0, 1], counted apart from the failures (resilience4j's `slowCallRateThreshold`,
        /// whose default is 100%). Default nil: a slow call counts as failed instead. Needs
        /// `slowCallThreshold`.
        public var slowCallRatio: Double?
        /// The longest the circuit stays half-open waiting for its probes: a probe that has not
        /// ended by then opens the circuit again, for the next break (resilience4j's
        /// `maxWaitDurationInHalfOpenState`). Default nil: it waits for the probes however long
        /// they take (resilience4j's default, 0, means the same).
        public var maxHalfOpenWait: Duration?

        /// Makes a configuration; every argument defaults to Polly v8's choice.
        ///
        /// ```swift
        /// let configuration = CircuitBreaker.Configuration(failureRatio: 0.5, minimumThroughput: 10)
        /// ```
        public init(
            failureRatio: Double = 0.1,
            window: Window = .time(.seconds(30)),
            minimumThroughput: Int = 100,
            breakDuration: Duration = .seconds(5),
            breakDurationMultiplier: Double = 1,
            maximumBreakDuration: Duration = .seconds(300),
            halfOpenProbes: Int = 1,
            slowCallThreshold: Duration? = nil,
            slowCallRatio: Double? = nil,
            maxHalfOpenWait: Duration? = nil
        ) {
            self.failureRatio = failureRatio
            self.window = window
            self.minimumThroughput = minimumThroughput
            self.breakDuration = breakDuration
            self.breakDurationMultiplier = breakDurationMultiplier
            self.maximumBreakDuration = maximumBreakDuration
            self.halfOpenProbes = halfOpenProbes
            self.slowCallThreshold = slowCallThreshold
            self.slowCallRatio = slowCallRatio
            self.maxHalfOpenWait = maxHalfOpenWait
        }

        /// The break after `openings` consecutive openings (1 for the first): `breakDuration`
        /// times the multiplier for each earlier one, at most `maximumBreakDuration`.
        ///
        /// ```swift
        /// CircuitBreaker.Configuration(breakDurationMultiplier: 2).breakDuration(afterOpenings: 3)   // 20 s
        /// ```
        public func breakDuration(afterOpenings openings: Int) -> Duration {
            guard openings > 1, breakDurationMultiplier != 1 else { return min(breakDuration, maximumBreakDuration) }
            let seconds = breakDuration / .seconds(1)
            let grown = seconds * pow(breakDurationMultiplier, Double(openings - 1))
            let maximum = maximumBreakDuration / .seconds(1)
            guard grown.isFinite, grown < maximum else { return maximumBreakDuration }
            return .seconds(grown)
        }

        /// Stops the program when a value is out of range.
        func validate() {
            precondition(
                failureRatio > 0 && failureRatio <= 1, "CircuitBreaker requires 0 < failureRatio <= 1, got \(failureRatio)")
            precondition(minimumThroughput >= 1, "CircuitBreaker requires minimumThroughput >= 1, got \(minimumThroughput)")
            precondition(breakDuration > .zero, "CircuitBreaker requires a positive breakDuration, got \(breakDuration)")
            precondition(
                breakDurationMultiplier >= 1,
                "CircuitBreaker requires breakDurationMultiplier >= 1, got \(breakDurationMultiplier)")
            precondition(
                maximumBreakDuration >= breakDuration,
                "CircuitBreaker requires maximumBreakDuration >= breakDuration, got \(maximumBreakDuration)")
            precondition(halfOpenProbes >= 1, "CircuitBreaker requires halfOpenProbes >= 1, got \(halfOpenProbes)")
            if let slowCallRatio {
                precondition(
                    slowCallRatio > 0 && slowCallRatio <= 1,
                    "CircuitBreaker requires 0 < slowCallRatio <= 1, got \(slowCallRatio)")
                precondition(
                    slowCallThreshold != nil,
                    "CircuitBreaker requires a slowCallThreshold for its slowCallRatio to count anything")
            }
            if let maxHalfOpenWait {
                precondition(
                    maxHalfOpenWait > .zero, "CircuitBreaker requires a positive maxHalfOpenWait, got \(maxHalfOpenWait)")
            }
            switch window {
            case .count(let calls):
                precondition(calls >= 1, "CircuitBreaker requires a count window of at least 1 call, got \(calls)")
            case .time(let duration):
                precondition(duration > .zero, "CircuitBreaker requires a positive time window, got \(duration)")
            }
        }
    }
}
