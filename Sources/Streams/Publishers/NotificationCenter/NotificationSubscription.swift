#if !canImport(Combine)
import Foundation

/// What an observer's block calls, without naming a generic type (a `@Sendable` block may not
/// capture the subscriber's type).
private protocol NotificationReceiver: AnyObject, Sendable {
    func receive(_ notification: Notification)
}

/// One subscriber's observer of ``Foundation/NotificationCenter/Publisher``.
///
/// The center keeps the subscription (through the observer's block) until `cancel()` removes
/// the observer.
// Unchecked: it holds the observed object, which need not be Sendable.
final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationReceiver, CustomStringConvertible,
    CustomReflectable, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    private let center: NotificationCenter
    private let name: Notification.Name
    private let object: AnyObject?
    private let state: LockedState<NotificationSubscriptionStateMachine<Downstream>>

    init(center: NotificationCenter, name: Notification.Name, object: AnyObject?, downstream: Downstream) {
        self.center = center
        self.name = name
        self.object = object
        state = LockedState(.subscribed(downstream, demand: .none, observer: nil))
        let receiver: any NotificationReceiver = self
        let observer = center.addObserver(forName: name, object: object, queue: nil) { notification in
            receiver.receive(notification)
        }
        state.withLock { phase in
            if case .subscribed(let downstream, let demand, nil) = phase {
                phase = .subscribed(downstream, demand: demand, observer: observer)
            }
        }
    }

    /// A notification was posted, on the posting thread: delivered if the subscriber wants one.
    func receive(_ notification: Notification) {
        guard let downstream = state.withLock({ $0.take() }) else { return }
        let more = downstream.receive(notification)
        state.withLock { $0.add(more) }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.add(demand) }
    }

    func cancel() {
        // Taken out of the lock, so that the observer is removed and the subscriber released
        // outside it.
        let previous = state.withLock { (phase) -> NotificationSubscriptionStateMachine<Downstream> in
            defer { phase = .terminated }
            return phase
        }
        if case .subscribed(_, _, let observer?) = previous {
            center.removeObserver(observer)
        }
    }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        let demand = state.withLock { (phase) -> Subscribers.Demand in
            if case .subscribed(_, let demand, _) = phase { demand } else { .none }
        }
        return Mirror(
            self,
            children: [
                "center": center,
                "name": name,
                "object": object as Any,
                "demand": demand,
            ]
        )
    }
}
#endif
