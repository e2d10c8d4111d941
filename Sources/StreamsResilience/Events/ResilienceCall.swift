import Streams

/// One call through a pipeline (one subscription of `resilient`, one `execute`), as its events
/// tell it: the request it is for, and the attempt under way, which the retry's
/// `attemptStarted` moves on. Made only when someone listens.
@usableFromInline
final class ResilienceCall: Sendable {
    let request: ResilienceRequestIdentity?
    /// The attempt under way; 0 before the first.
    private let attempt = LockedState(0)

    init(request: ResilienceRequestIdentity?) {
        self.request = request
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
