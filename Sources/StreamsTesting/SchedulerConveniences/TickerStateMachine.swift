import Streams

/// The state of one `timer(interval:)` stream's scheduled work: it is stopped exactly once, when
/// the stream ends, even if the stream ends before the work is known.
struct TickerStateMachine {
    enum Phase {
        /// The work is being scheduled.
        case awaitingCancellable
        /// The work is scheduled; cancelling this stops it.
        case ticking(any Cancellable)
        /// The stream has ended: no work may run.
        case terminated
    }

    enum AttachAction {
        case none
        /// The stream has already ended: stop the work at once.
        case cancel(any Cancellable)
    }

    enum FinishAction {
        case none
        /// Stop the work.
        case cancel(any Cancellable)
    }

    var phase: Phase = .awaitingCancellable

    mutating func attach(_ cancellable: any Cancellable) -> AttachAction {
        guard case .awaitingCancellable = phase else { return .cancel(cancellable) }
        phase = .ticking(cancellable)
        return .none
    }

    mutating func finish() -> FinishAction {
        defer { phase = .terminated }
        guard case .ticking(let cancellable) = phase else { return .none }
        return .cancel(cancellable)
    }
}
