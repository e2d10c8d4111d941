import Streams

/// A call of the `async` face waiting in a ``ConcurrencyLimiter``'s queue: it suspends until the
/// limiter hands it a permit, or until its task is cancelled, which takes it out of the queue at
/// once. A permit handed over while the cancel is on its way is passed on to the next waiter.
final class AsyncPermitWaiter: GateWaiter {
    /// Where the wait stands.
    enum State {
        /// In the queue, before the task suspended.
        case queued
        /// In the queue, the task suspended.
        case suspended(CheckedContinuation<Void, Never>)
        /// The permit is this call's.
        case opened
        /// The task was cancelled before the permit came.
        case cancelled
    }

    private let limiter: ConcurrencyLimiter
    private let state = LockedState(State.queued)

    init(limiter: ConcurrencyLimiter) {
        self.limiter = limiter
    }

    /// Suspends until the permit is this call's (true) or the task is cancelled (false: no permit
    /// is held).
    func wait() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    switch state {
                    case .queued:
                        state = .suspended(continuation)
                        return false
                    case .opened, .cancelled:
                        return true
                    case .suspended:
                        preconditionFailure("AsyncPermitWaiter waits once")
                    }
                }
                if resumeNow { continuation.resume() }
            }
            return state.withLock { state in
                if case .opened = state { return true }
                return false
            }
        } onCancel: {
            let (leave, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                switch state {
                case .queued:
                    state = .cancelled
                    return (true, nil)
                case .suspended(let continuation):
                    state = .cancelled
                    return (true, continuation)
                case .opened, .cancelled:
                    return (false, nil)
                }
            }
            if leave { limiter.abandon(ObjectIdentifier(self)) }
            continuation?.resume()
        }
    }

    func gateOpened() {
        let (continuation, passOn) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            switch state {
            case .queued:
                state = .opened
                return (nil, false)
            case .suspended(let continuation):
                state = .opened
                return (continuation, false)
            case .cancelled:
                return (nil, true)
            case .opened:
                preconditionFailure("A ConcurrencyLimiter handed one waiter two permits")
            }
        }
        if passOn { limiter.release() }
        continuation?.resume()
    }
}
