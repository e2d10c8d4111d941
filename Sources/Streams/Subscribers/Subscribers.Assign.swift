extension Publisher where Failure == Never {
    /// Writes every value to `object`'s property at `keyPath`.
    ///
    /// The subscriber keeps `object` alive until the stream completes or the returned
    /// ``AnyCancellable`` is cancelled: assigning into the object that holds the cancellable
    /// makes a retain cycle. Use `assign(to: &$property)` for `@Published` properties instead.
    ///
    /// ```swift
    /// final class Label { var text = "" }
    /// let label = Label()
    /// let cancellable = Just("Hello").assign(to: \.text, on: label)
    /// ```
    @inlinable
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

extension Subscribers {
    /// A subscriber that writes every value to a property of an object.
    ///
    /// It asks for unlimited values and holds the object strongly until completion or cancel.
    ///
    /// ```swift
    /// let assign = Subscribers.Assign(object: label, keyPath: \.text)
    /// Just("Hi").subscribe(assign)
    /// ```
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        /// Assign never fails.
        public typealias Failure = Never

        @usableFromInline
        let lock = Lock()
        // Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var target: Root?
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription

        /// Where each value is written.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object written to; `nil` once the subscriber has completed or been cancelled.
        public var object: Root? {
            lock.withLockUnchecked { target }
        }

        /// Makes a subscriber that writes values to `object[keyPath: keyPath]`.
        ///
        /// ```swift
        /// let assign = Subscribers.Assign(object: label, keyPath: \.text)
        /// ```
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            target = object
            self.keyPath = keyPath
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any other.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = lock.withLockUnchecked { () -> Bool in
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Writes `value` to the object's property.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            let object = lock.withLockUnchecked { () -> Root? in
                guard case .subscribed = status else { return nil }
                return target
            }
            object?[keyPath: keyPath] = value
            return .none
        }

        /// Releases the object.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let released = lock.withLockUnchecked { () -> Root? in
                guard case .subscribed = status else { return nil }
                status = .terminal
                defer { target = nil }
                return target
            }
            withExtendedLifetime(released) {}
        }

        /// Cancels the subscription and releases the object.
        ///
        /// Before any subscription it does nothing, as in Combine: the object is kept.
        @inlinable
        public func cancel() {
            let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Root?) in
                if case .awaitingSubscription = status { return (status, nil) }
                defer {
                    status = .terminal
                    target = nil
                }
                return (status, target)
            }
            taken.0.cancel()
        }

        /// `"Assign <Root>."`, as Combine describes it.
        public var description: String { "Assign \(Root.self)." }

        /// Shows the object and the key path.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: ["object": object as Any, "keyPath": keyPath, "status": lock.withLockUnchecked { status }])
        }

        /// The description, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}
