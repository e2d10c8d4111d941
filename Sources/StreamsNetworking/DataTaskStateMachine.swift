import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// The state of a subscription that runs one task for one subscriber (the request publisher's,
/// whose task is an ``HTTPTransportTask``, and `dataTaskPublisher`'s, whose task is a
/// `URLSessionDataTask`): a value with no lock and no callouts. Each event updates it and returns
/// what the subscription must do once the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingDemand`: subscribed, nothing requested yet; the first request → `starting`.
/// - `starting`: the task is being made, outside the lock; the task → `running`.
/// - `running`: the task was resumed; its end → `terminated`.
/// - `terminated`: ended or cancelled; the downstream is let go and later events are ignored.
///
/// `cancel()` leads from every phase to `terminated`. A task made after the cancel is cancelled
/// before it ever starts; one already running is stopped as its transport decides (for a
/// URLSession, as ``URLSession/stop(_:)`` does).
struct DataTaskStateMachine<Downstream, Task> {
    enum Phase {
        case awaitingDemand(Downstream)
        case starting(Downstream)
        case running(Downstream, Task)
        case terminated
    }

    private(set) var phase: Phase
    /// The demand requested so far; zero before the first request and once done.
    private(set) var demand = Subscribers.Demand.none

    init(downstream: Downstream) {
        phase = .awaitingDemand(downstream)
    }

    /// The downstream, until done.
    var downstream: Downstream? {
        switch phase {
        case .awaitingDemand(let downstream), .starting(let downstream), .running(let downstream, _): downstream
        case .terminated: nil
        }
    }

    /// The task, once made and until done.
    var task: Task? {
        if case .running(_, let task) = phase { task } else { nil }
    }

    var isDone: Bool {
        if case .terminated = phase { true } else { false }
    }

    /// What to do once the lock is released, after a request.
    enum RequestAction {
        case none
        /// Make the task, then report it with ``made(_:)``.
        case makeTask
        /// Resume the running task again (resuming a running task does nothing).
        case resume(Task)
    }

    /// The downstream requested `demand` (more than zero). The first request makes the task; a
    /// later one resumes it again if `resumingEveryTime`, as Combine's `dataTaskPublisher` does.
    mutating func requested(_ demand: Subscribers.Demand, resumingEveryTime: Bool) -> RequestAction {
        switch phase {
        case .awaitingDemand(let downstream):
            self.demand += demand
            phase = .starting(downstream)
            return .makeTask
        case .starting:
            self.demand += demand
            return .none
        case .running(_, let task):
            self.demand += demand
            return resumingEveryTime ? .resume(task) : .none
        case .terminated:
            return .none
        }
    }

    /// What to do with a task just made.
    enum MadeAction {
        case resume
        /// The subscription was cancelled while the task was being made: cancel it before it
        /// ever starts (it has no transfer to race with, so this is safe everywhere).
        case cancelUnstarted
    }

    mutating func made(_ task: Task) -> MadeAction {
        guard case .starting(let downstream) = phase else { return .cancelUnstarted }
        phase = .running(downstream, task)
        return .resume
    }

    /// What to do once the lock is released, after the task ended.
    enum EndAction {
        /// Nothing: the subscription was cancelled, and its downstream let go.
        case none
        /// Tell the downstream how the task ended.
        case deliver(Downstream)
    }

    /// The task ended.
    mutating func ended() -> EndAction {
        let downstream = self.downstream
        finish()
        return downstream.map { .deliver($0) } ?? .none
    }

    /// What to do once the lock is released, after a cancel.
    enum CancelAction {
        case none
        /// Let the downstream go; no task runs.
        case release(Downstream)
        /// Let the downstream go and stop the running task.
        case stop(Task, releasing: Downstream)
    }

    mutating func cancelled() -> CancelAction {
        let previous = phase
        finish()
        switch previous {
        case .awaitingDemand(let downstream), .starting(let downstream): return .release(downstream)
        case .running(let downstream, let task): return .stop(task, releasing: downstream)
        case .terminated: return .none
        }
    }

    private mutating func finish() {
        phase = .terminated
        demand = .none
    }
}
