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
    /// Unchecked `Sendable`, as Combine's: it writes through a key path into an object, neither
    /// of which need be `Sendable`.
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

        /// What the lock guards.
        @usableFromInline
        struct State {
            /// The object, until the subscriber completes or is cancelled.
            @usableFromInline
            var target: Root?
            @usableFromInline
            var status = SubscriptionStatus.awaitingSubscription

            @inlinable
            init(target: Root) {
                self.target = target
            }

            /// What ``Subscribers/Assign/cancel()`` does once the lock is released.
            @usableFromInline
            enum CancelAction {
                /// Before any subscription: nothing, and the object is kept, as in Combine.
                case none
                /// Cancel the upstream (a status: nothing to cancel once completed), then let go
                /// of `released`, the object, outside the lock.
                case cancel(SubscriptionStatus, released: Root?)
            }

            /// The subscriber is cancelled: it ends and lets go of the object, unless it has no
            /// subscription yet.
            @inlinable
            mutating func cancel() -> CancelAction {
                if case .awaitingSubscription = status { return .none }
                defer {
                    status = .terminated
                    target = nil
                }
                return .cancel(status, released: target)
            }
        }

        @usableFromInline
        let state: LockedState<State>

        /// Where each value is written.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object written to; `nil` once the subscriber has completed or been cancelled.
        public var object: Root? {
            state.withLock { $0.target }
        }

        /// Makes a subscriber that writes values to `object[keyPath: keyPath]`.
        ///
        /// ```swift
        /// let assign = Subscribers.Assign(object: label, keyPath: \.text)
        /// ```
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            state = LockedState(State(target: object))
            self.keyPath = keyPath
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any other.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = state.withLock { state in
                guard case .awaitingSubscription = state.status else { return false }
                state.status = .subscribed(subscription)
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
            let object = state.withLock { state -> Root? in
                guard case .subscribed = state.status else { return nil }
                return state.target
            }
            object?[keyPath: keyPath] = value
            return .none
        }

        /// Releases the object.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let released = state.withLock { state -> Root? in
                guard case .subscribed = state.status else { return nil }
                state.status = .terminated
                defer { state.target = nil }
                return state.target
            }
            withExtendedLifetime(released) {}
        }

        /// Cancels the subscription and releases the object.
        ///
        /// Before any subscription it does nothing, as in Combine: the object is kept.
        @inlinable
        public func cancel() {
            guard case .cancel(let upstream, let released) = state.withLock({ $0.cancel() }) else { return }
            upstream.cancel()
            withExtendedLifetime(released) {}
        }

        /// `"Assign <Root>."`, as Combine describes it.
        public var description: String { "Assign \(Root.self)." }

        /// Shows the object and the key path.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: ["object": object as Any, "keyPath": keyPath, "status": state.withLock { $0.status }])
        }

        /// The description, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}
