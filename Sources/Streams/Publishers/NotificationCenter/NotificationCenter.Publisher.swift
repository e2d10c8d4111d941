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

#endif
