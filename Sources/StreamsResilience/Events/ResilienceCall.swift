import Streams

/// One call through a pipeline (one subscription of `resilient`, one `execute`), as its events
/// tell it: the request it is for, and the attempt under way, which the retry's
/// `attemptStarted` moves on, and the recorder of its report when one was asked for. Made only
/// when someone listens or a report was asked for.
@usableFromInline
final class ResilienceCall: Sendable {
    let request: ResilienceRequestIdentity?
    /// The call's report, when one was asked for.
    @usableFromInline
    let recorder: ResilienceReportRecorder?
    /// The attempt under way; 0 before the first.
    private let attempt = LockedState(0)

    init(request: ResilienceRequestIdentity?, recorder: ResilienceReportRecorder?) {
        self.request = request
        self.recorder = recorder
    }

    /// The context of `event`, told in this call of the operation named `operation`.
    @usableFromInline
    func context(of event: ResilienceEvent, operation: String?) -> ResilienceEventContext {
        let number: Int
        if case .attemptStarted(let started) = event {
            attempt.withLock { $0 = started }
            number = started
        } else {
            number = attempt.withLock { $0 }
        }
        return ResilienceEventContext(operation: operation, attempt: number > 0 ? number : nil, request: request)
    }
}
