import Streams
import StreamsTesting

/// Weak references to the subscriptions of data tasks, to tell when a session has let go of
/// every task, without asking the session.
///
/// A request publisher's subscription (or `dataTaskPublisher`'s), once cancelled, is kept alive
/// only by its task's completion handler, which the session holds until the task has ended and
/// left it. So once no more subscriptions come and none of them is left, every task has ended;
/// one that never ends keeps its subscription, and ``allEnded`` never becomes true.
///
/// The session's own `getAllTasks` must not be polled while tasks are ending: FoundationNetworking
/// reads its table of tasks on the delegate queue while its work queue removes the tasks that end
/// from that table, and the read now and then traps (SIGILL) or crashes. Ask the session only
/// once ``allEnded``, when nothing can end any more.
///
/// ```swift
/// let subscriptions = SubscriptionLifetimes()
/// session.requestPublisher(for: url).handleEvents(receiveSubscription: subscriptions.track).subscribe(probe)
/// probe.cancel()
/// subscriptions.stopTracking()
/// let drained = CancellationTests.wait { subscriptions.allEnded }
/// ```
final class SubscriptionLifetimes: Sendable {
    private struct Reference {
        weak var subscription: AnyObject?
    }

    /// The subscriptions followed, and whether more can come.
    private let state = Locked<(references: [Reference], tracking: Bool)>(([], true))

    /// Follows `subscription` (an object) from now on, without keeping it alive.
    func track(_ subscription: any Subscription) {
        let reference = Reference(subscription: subscription as AnyObject)
        state.withLock { $0.references.append(reference) }
    }

    /// No more subscriptions come: ``allEnded`` can become true.
    func stopTracking() {
        state.withLock { $0.tracking = false }
    }

    /// How many of the subscriptions followed so far are still alive.
    var alive: Int {
        state.withLock { state in state.references.count(where: { $0.subscription != nil }) }
    }

    /// Whether no more subscriptions come and none of them is alive: then every task that held
    /// one has ended.
    var allEnded: Bool {
        state.withLock { state in !state.tracking && !state.references.contains(where: { $0.subscription != nil }) }
    }
}
