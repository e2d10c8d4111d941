import Synchronization

/// Holds the server's 401s until a number of requests to reject have arrived, so that all of
/// them were sent before any client learns of the first 401 (how a test makes "concurrent"
/// exact). Those that arrive later are answered at once. If the number is never reached, the
/// held ones are let go after `limit`, so that a failing test cannot keep the server from
/// stopping.
final class RejectionHold: Sendable {
    private struct Held {
        var arrived = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var timer: Task<Void, Never>?
    }

    private let count: Int
    private let limit: Duration
    private let state = Mutex(Held())

    /// Holds until `count` have arrived (0 or 1: never holds), for at most `limit`.
    init(count: Int, limit: Duration = .seconds(30)) {
        self.count = count
        self.limit = limit
    }

    /// Returns once `count` requests to reject have arrived (this one included), or `limit`
    /// after the first of them.
    func arrive() async {
        guard count > 1 else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released = state.withLock { held -> [CheckedContinuation<Void, Never>] in
                held.arrived += 1
                guard held.arrived >= count else {
                    held.waiting.append(continuation)
                    if held.timer == nil {
                        let limit = self.limit
                        held.timer = Task { [weak self] in
                            try? await Task.sleep(for: limit)
                            if !Task.isCancelled { self?.releaseAll() }
                        }
                    }
                    return []
                }
                held.timer?.cancel()
                held.timer = nil
                defer { held.waiting = [] }
                return held.waiting + [continuation]
            }
            for waiting in released { waiting.resume() }
        }
    }

    /// Lets every held request go.
    private func releaseAll() {
        let released = state.withLock { held in
            defer { held.waiting = [] }
            return held.waiting
        }
        for waiting in released { waiting.resume() }
    }
}
