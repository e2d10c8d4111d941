import Streams

/// The scheduled work behind one `timer(interval:)` stream, which the stream stops when it ends.
final class SchedulerTicker: Sendable {
    let state = LockedState(TickerStateMachine())

    /// Keeps `cancellable`, or cancels it at once if the stream has already ended.
    func attach(_ cancellable: any Cancellable) {
        switch state.withLock({ $0.attach(cancellable) }) {
        case .none: break
        case .cancel(let cancellable): cancellable.cancel()
        }
    }

    /// Stops the work when the stream `continuation` feeds ends: when its consumer is cancelled
    /// or the stream goes away.
    func finish<Element>(when continuation: AsyncStream<Element>.Continuation) {
        continuation.onTermination = { _ in self.finish() }
    }

    /// Stops the work.
    func finish() {
        switch state.withLock({ $0.finish() }) {
        case .none: break
        case .cancel(let cancellable): cancellable.cancel()
        }
    }
}
