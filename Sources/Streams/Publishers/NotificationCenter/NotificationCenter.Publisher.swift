// Combine's `NotificationCenter.Publisher`, for platforms whose Foundation does not have it.
// Where Apple's Combine exists, Foundation declares these names itself.
#if !canImport(Combine)
import Foundation

extension NotificationCenter {
    /// Returns a publisher of the notifications named `name` that this center posts, from
    /// `object` only when it is given, as Combine's Foundation overlay does.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default
    ///     .publisher(for: Notification.Name("Saved"))
    ///     .sink { print("saved:", $0.object ?? "nil") }
    /// ```
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher of the notifications a center posts under one name.
    ///
    /// Each subscriber gets an observer of its own, added when it subscribes and removed when it
    /// cancels. Notifications arrive synchronously on the thread that posts them; one that
    /// arrives while the subscriber has no outstanding demand is dropped. The publisher never
    /// completes.
    ///
    /// ```swift
    /// let saves = NotificationCenter.Publisher(center: .default, name: Notification.Name("Saved"))
    /// let cancellable = saves.sink { print($0.name) }
    /// ```
    public struct Publisher: Streams.Publisher {
        /// Every notification posted under ``name``.
        public typealias Output = Notification
        /// Observing never fails.
        public typealias Failure = Never

        /// The center observed.
        public let center: NotificationCenter
        /// The name of the notifications published.
        public let name: Notification.Name
        /// The only sender whose notifications are published, or nil for any sender.
        public let object: AnyObject?

        /// Makes a publisher of the notifications named `name` that `center` posts, from
        /// `object` only when it is given.
        ///
        /// ```swift
        /// let saves = NotificationCenter.Publisher(center: .default, name: Notification.Name("Saved"), object: document)
        /// ```
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer for `subscriber`, then sends it the subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            subscriber.receive(
                subscription: NotificationSubscription(center: center, name: name, object: object, downstream: subscriber))
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Two publishers are equal when they observe the same center (by identity), under the same
    /// name, for the same object (by identity).
    ///
    /// ```swift
    /// let name = Notification.Name("Saved")
    /// let center = NotificationCenter.default
    /// let same = center.publisher(for: name) == center.publisher(for: name)   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

/// What an observer's block calls, without naming a generic type (a `@Sendable` block may not
/// capture the subscriber's type).
private protocol NotificationReceiver: AnyObject, Sendable {
    func receive(_ notification: Notification)
}

/// Where a ``NotificationSubscription`` stands: a value with no lock and no callouts.
enum NotificationSubscriptionStateMachine<Downstream: Subscriber> {
    /// Observing, with what the subscriber still wants and the center's observer token
    /// (nil only while the observer is being added).
    case subscribed(Downstream, demand: Subscribers.Demand, observer: (any NSObjectProtocol)?)
    case terminated

    /// A notification arrived: the subscriber to call, after taking one from its demand,
    /// or nil to drop the notification.
    mutating func take() -> Downstream? {
        guard case .subscribed(let downstream, let demand, let observer) = self, demand > 0 else { return nil }
        self = .subscribed(downstream, demand: demand - 1, observer: observer)
        return downstream
    }

    /// Adds `more` to the demand while subscribed.
    mutating func add(_ more: Subscribers.Demand) {
        guard more > 0, case .subscribed(let downstream, let demand, let observer) = self else { return }
        self = .subscribed(downstream, demand: demand + more, observer: observer)
    }
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
