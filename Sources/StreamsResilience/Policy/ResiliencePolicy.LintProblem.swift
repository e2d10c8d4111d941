import Streams

extension ResiliencePolicy {
    /// A setting of a policy that defeats another, as ``ResiliencePolicy/lint()`` reports it.
    ///
    /// ```swift
    /// for problem in policy.lint() { print(problem) }   // one sentence: the rule, and what to change
    /// ```
    public struct LintProblem: Sendable, Hashable, CustomStringConvertible {
        /// The rules the linter checks.
        ///
        /// ```swift
        /// #expect(policy.lint().map(\.rule) == [.retryWaitsExceedTotalTimeout])
        /// ```
        public enum Rule: String, Sendable, Hashable, CaseIterable {
            /// The attempt timeout is not shorter than the total timeout.
            case attemptTimeoutNotShorterThanTotalTimeout
            /// The retry's waits alone exceed the total timeout.
            case retryWaitsExceedTotalTimeout
            /// Hedging's delay is not shorter than the attempt timeout.
            case hedgingDelayNotShorterThanAttemptTimeout
            /// The breaker's count window holds fewer calls than its minimum throughput.
            case minimumThroughputBeyondWindow
        }

        /// Which rule the policy breaks.
        public let rule: Rule
        /// What is wrong and what to change, in one sentence.
        public let message: String

        /// Names a broken rule with its sentence.
        ///
        /// ```swift
        /// let problem = ResiliencePolicy.LintProblem(rule: .minimumThroughputBeyondWindow, message: "…")
        /// ```
        public init(rule: Rule, message: String) {
            self.rule = rule
            self.message = message
        }

        /// The sentence.
        ///
        /// ```swift
        /// print(problem)   // attemptTimeout (10.0 seconds) is not shorter than totalTimeout (5.0 seconds): …
        /// ```
        public var description: String { message }
    }
}
