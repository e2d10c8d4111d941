import Streams

/// What the stages did for one call, told beside its value or its error: each attempt with its
/// duration and error, each wait and why, the stage that refused or stopped the call, why the
/// retry gave up, and what is left of the retry budget.
///
/// One value type for both faces, filled from the events of the one call:
/// `ResiliencePipeline.executeReporting(_:)` returns it with the outcome,
/// `resilient(_:scheduler:isSafeToRepeat:request:onReport:)` hands it over when each
/// subscription ends, and StreamsNetworking's `NetworkResponse.resilienceReport` carries it.
/// Nothing is recorded for a call that asks for no report. Errors show as their
/// `redactedDescription` in the report's description.
///
/// ```swift
/// let outcome = await pipeline.executeReporting { _ in try await client.prices() }
/// for attempt in outcome.report.attempts { print(attempt) }   // attempt 1 failed after 2.0 seconds: …
/// if outcome.report.refusedBy == .circuitBreaker { showOfflineBanner() }
/// ```
public struct ResilienceReport: Sendable, CustomStringConvertible {
    /// One attempt of the call.
    public struct Attempt: Sendable, CustomStringConvertible {
        /// The retry's attempt number: 1 for the first.
        public let number: Int
        /// How long it ran; nil while it runs, or when the clock's time is not a
        /// ``TimelineInstant``.
        public internal(set) var duration: Duration?
        /// Its error; nil when it returned (or still runs).
        public internal(set) var error: (any Error)?
        /// Whether it has ended.
        public internal(set) var ended: Bool

        /// `attempt 1 failed after 2.0 seconds: URLError(…)`, `attempt 2 succeeded after 0.1 seconds`.
        public var description: String {
            let outcome = !ended ? "running" : error == nil ? "succeeded" : "failed"
            let took = duration.map { " after \($0)" } ?? ""
            return "attempt \(number) \(outcome)\(took)" + (error.map { ": \($0.redactedDescription)" } ?? "")
        }
    }

    /// Why the call waited.
    public enum WaitReason: Sendable, CustomStringConvertible {
        /// The retry's backoff (or the server's `Retry-After`) before retry number `retry`.
        case retryBackoff(retry: Int)
        /// A rate limiter's next token.
        case rateLimiter
        /// The server's pushback: its `Retry-After`, or its announced quota.
        case serverPushback

        /// `retry 1`, `rate limiter`, `server pushback`.
        public var description: String {
            switch self {
            case .retryBackoff(let retry): "backoff before retry \(retry)"
            case .rateLimiter: "rate limiter"
            case .serverPushback: "server pushback"
            }
        }
    }

    /// A wait of the call.
    public struct Wait: Sendable, CustomStringConvertible {
        /// How long.
        public let duration: Duration
        /// Why.
        public let reason: WaitReason

        /// `waited 1.0 seconds: backoff before retry 1`.
        public var description: String { "waited \(duration): \(reason)" }
    }

    /// A stage that refused or stopped the call.
    public enum Stage: Sendable, Hashable {
        /// The circuit breaker refused an attempt.
        case circuitBreaker
        /// A concurrency limiter's queue was full.
        case concurrencyLimiter
        /// A rate limiter had no token within its wait.
        case rateLimiter
        /// The server's pushback was longer than the pushback limiter's `maxWait`.
        case pushback
        /// An attempt ran into the attempt timeout.
        case attemptTimeout
        /// The call ran into the total timeout.
        case totalTimeout

        /// The stage whose error `error` is, or nil for an error of the call's own.
        init?(stoppedBy error: any Error) {
            switch (error as? any ResilienceStageErrorCarrying)?.stageError ?? error {
            case is CircuitOpenError: self = .circuitBreaker
            case let refusal as LimiterRejectedError:
                switch refusal.reason {
                case .queueFull: self = .concurrencyLimiter
                case .rateLimited: self = .rateLimiter
                case .serverPushback: self = .pushback
                }
            case is AttemptTimeoutError: self = .attemptTimeout
            case is DeadlineExceededError: self = .totalTimeout
            default: return nil
            }
        }
    }

    /// The attempts, in order (a hedge is not an attempt of its own: see ``hedges``).
    public internal(set) var attempts: [Attempt] = []
    /// The waits, in order.
    public internal(set) var waits: [Wait] = []
    /// The stage that refused or stopped the call last, if any: with an error from the call, the
    /// stage that made it.
    public internal(set) var refusedBy: Stage?
    /// Why the retry gave up, when it did.
    public internal(set) var retryGaveUp: RetryGiveUpReason?
    /// The hedges started beside the attempts.
    public internal(set) var hedges = 0
    /// The error the fallback was asked to replace, when it was.
    public internal(set) var fallbackAfter: (any Error)?
    /// The tokens left in the pipeline's retry budget when the call ended; nil without a budget.
    public internal(set) var budgetLeft: Int?

    /// An empty report.
    public init() {}

    /// The total of the waits.
    ///
    /// ```swift
    /// print(report.totalWait)   // 3.0 seconds
    /// ```
    public var totalWait: Duration {
        waits.reduce(.zero) { $0 + $1.duration }
    }

    /// One line per attempt, wait and decision.
    public var description: String {
        var lines = attempts.map(\.description) + waits.map(\.description)
        if hedges > 0 { lines.append("hedges: \(hedges)") }
        if let refusedBy { lines.append("stopped by: \(refusedBy)") }
        if let retryGaveUp { lines.append("retry gave up: \(retryGaveUp)") }
        if let fallbackAfter { lines.append("fallback after: \(fallbackAfter.redactedDescription)") }
        if let budgetLeft { lines.append("retry budget left: \(budgetLeft)") }
        return lines.joined(separator: "\n")
    }

    /// The call ended with an error that `stage` made (nil: the call's own error). A stage's
    /// refusal told only to the shared object's own observer is known so.
    package mutating func noteStop(by stage: Stage?) {
        if let stage { refusedBy = stage }
    }

    /// Adds what `event` says about the call.
    mutating func record(_ event: ResilienceEvent) {
        switch event {
        case .attemptStarted(let number):
            attempts.append(Attempt(number: number, duration: nil, error: nil, ended: false))
        case .attemptEnded(let number, let duration, let error):
            if let index = attempts.lastIndex(where: { $0.number == number }) {
                attempts[index].duration = duration
                attempts[index].error = error
                attempts[index].ended = true
            } else {
                attempts.append(Attempt(number: number, duration: duration, error: error, ended: true))
            }
        case .retryScheduled(let retry, let delay, _):
            waits.append(Wait(duration: delay, reason: .retryBackoff(retry: retry)))
        case .retryGaveUp(let reason, _, _):
            retryGaveUp = reason
        case .hedgeStarted:
            hedges += 1
        case .circuitRejected:
            refusedBy = .circuitBreaker
        case .limiterRejected(let refusal):
            switch refusal.reason {
            case .queueFull: refusedBy = .concurrencyLimiter
            case .rateLimited: refusedBy = .rateLimiter
            case .serverPushback: refusedBy = .pushback
            }
        case .attemptTimedOut:
            refusedBy = .attemptTimeout
        case .deadlineExceeded:
            refusedBy = .totalTimeout
        case .limiterUsage(let usage):
            guard case .delayed(let wait) = usage.change else { return }
            waits.append(Wait(duration: wait, reason: usage.limiter == .pushback ? .serverPushback : .rateLimiter))
        case .fallbackUsed(let error):
            fallbackAfter = error
        case .circuitStateChanged, .circuitCallRecorded, .circuitWouldOpen:
            return
        }
    }
}
