import Streams
import StreamsResilience

/// A recorder of what resilience strategies do, stamped with the virtual time of a
/// ``TestScheduler``, so that a test asserts a whole timeline in one expectation.
///
/// Hand ``events`` to the strategies (or to a `ResiliencePipeline`); add readings of your own
/// with ``note(_:)``. Each entry reads `"<seconds> s: <what>"`.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let timeline = ResilienceTimeline(scheduler: scheduler)
/// let pipeline = ResiliencePipeline(policy, events: timeline.events)
/// // ... run the calls ...
/// #expect(timeline.entries == ["0 s: retry 1 in 1 s", "1 s: retry 2 in 2 s", "7 s: circuit open"])
/// ```
public final class ResilienceTimeline: Sendable {
    private let scheduler: TestScheduler
    private let recorded: LockedState<[String]>
    private let recordsAttempts: Bool

    /// Makes an empty timeline on the clock of `scheduler`. The start and end of every attempt
    /// are recorded only if `includingAttempts` is true: without them a timeline reads as the
    /// decisions the strategies took (retries, circuit changes, refusals, giving up).
    ///
    /// ```swift
    /// let timeline = ResilienceTimeline(scheduler: TestScheduler())
    /// let detailed = ResilienceTimeline(scheduler: TestScheduler(), includingAttempts: true)
    /// ```
    public init(scheduler: TestScheduler, includingAttempts: Bool = false) {
        self.scheduler = scheduler
        recorded = LockedState([])
        recordsAttempts = includingAttempts
    }

    /// The observer that records each event at the scheduler's time.
    ///
    /// ```swift
    /// let breaker = CircuitBreaker(events: timeline.events)
    /// ```
    public var events: ResilienceEvents {
        ResilienceEvents { [self] event in
            switch event {
            case .attemptStarted, .attemptEnded:
                if recordsAttempts { record(Self.describe(event)) }
            case .circuitCallRecorded, .limiterUsage:
                // Bookkeeping rather than decisions: each call's outcome and each permit.
                break
            default:
                record(Self.describe(event))
            }
        }
    }

    /// Records `text` at the scheduler's time, as a reading of the test's own.
    ///
    /// ```swift
    /// timeline.note("budget \(budget.available)/\(budget.capacity)")
    /// ```
    public func note(_ text: String) {
        record(text)
    }

    /// The entries so far, in the order they came.
    ///
    /// ```swift
    /// print(timeline.entries.joined(separator: "\n"))
    /// ```
    public var entries: [String] {
        recorded.withLock { $0 }
    }

    private func record(_ text: String) {
        let stamp = Self.seconds(.nanoseconds(scheduler.now.nanoseconds))
        recorded.withLock { $0.append("\(stamp) s: \(text)") }
    }

    /// A short text for `event`.
    static func describe(_ event: ResilienceEvent) -> String {
        switch event {
        case .circuitStateChanged(let state):
            return "circuit \(state)"
        case .circuitRejected(let refusal):
            let left = refusal.retryAfter.map { ", \(seconds($0)) s left" } ?? ""
            return "circuit refused (\(refusal.state)\(left))"
        case .circuitWouldOpen(let calls, let failures, let slowCalls):
            return "circuit would open (\(failures) of \(calls) calls failed, \(slowCalls) slow)"
        case .attemptTimedOut(let timeout):
            return "attempt timed out after \(seconds(timeout)) s"
        case .deadlineExceeded(let deadline):
            return "deadline of \(seconds(deadline)) s passed"
        case .limiterRejected(let refusal):
            return "limiter refused (\(refusal.reason))"
        case .retryScheduled(let retry, let delay, _):
            return "retry \(retry) in \(seconds(delay)) s"
        case .attemptStarted(let attempt):
            return "attempt \(attempt) started"
        case .attemptEnded(let attempt, let duration, let error):
            let took = duration.map { " after \(seconds($0)) s" } ?? ""
            return "attempt \(attempt) \(error == nil ? "succeeded" : "failed")\(took)"
        case .retryGaveUp(let reason, let attempts, _):
            return "gave up after \(attempts) attempts (\(reason))"
        case .hedgeStarted(let attempt, let afterFailure):
            return "hedge \(attempt) started\(afterFailure == nil ? "" : " after a failure")"
        case .circuitCallRecorded(let failed, let duration):
            return "circuit recorded a \(failed ? "failure" : "success") after \(seconds(duration)) s"
        case .limiterUsage(let usage):
            return "\(usage)"
        case .fallbackUsed:
            return "fallback used"
        }
    }

    /// `duration` in seconds, with at most three decimals and none when whole.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Int64((duration / .milliseconds(1)).rounded())
        let whole = milliseconds / 1000
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(whole)" }
        var decimals = String(fraction)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals)"
    }
}
