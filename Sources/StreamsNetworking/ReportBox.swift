import Streams
import StreamsResilience

/// The report of one call, kept from its completion until its value is passed on.
final class ReportBox: Sendable {
    private let stored = LockedState<ResilienceReport?>(nil)

    func store(_ report: ResilienceReport) {
        stored.withLock { $0 = report }
    }

    var report: ResilienceReport? { stored.withLock { $0 } }
}
