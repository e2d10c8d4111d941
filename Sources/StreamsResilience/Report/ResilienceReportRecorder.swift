import Streams

/// The report of one call, filled from its events as they come (from any thread).
@usableFromInline
package final class ResilienceReportRecorder: Sendable {
    private let report = LockedState(ResilienceReport())

    package init() {}

    /// Adds `event`.
    @usableFromInline
    func record(_ event: ResilienceEvent) {
        report.withLock { $0.record(event) }
    }

    /// The report so far, with what is left of `budget`.
    package func report(budget: RetryBudget?) -> ResilienceReport {
        var copy = report.withLock { $0 }
        copy.budgetLeft = budget?.available
        return copy
    }
}
