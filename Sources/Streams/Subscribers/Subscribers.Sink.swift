import Synchronization

extension Publisher {
    /// Attaches a subscriber that asks for unlimited values and calls a closure for each value
    /// and for the completion.
    ///
    /// Keep the returned ``AnyCancellable``: the subscription ends when it is cancelled or
    /// deinitialized. Both closures are released on completion or cancel.
    ///
    /// ```swift
    /// let cancellable = URLErrorProne.publisher
    ///     .sink(receiveCompletion: { print("completion:", $0) },
    ///           receiveValue: { print("value:", $0) })
    /// ```
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        receive(subscriber: sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber that asks for unlimited values and calls `receiveValue` for each.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.sink { print($0) }
    /// ```
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A subscriber that asks for unlimited values on subscription and calls closures for the
    /// values and the completion.
    ///
    /// Usually made by `sink(receiveCompletion:receiveValue:)`. A second subscription is
    /// cancelled; input after the completion or after `cancel()` is ignored.
    ///
    /// ```swift
    /// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// [1, 2].publisher.receive(subscriber: sink)
    /// ```
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        /// The two closures, in one object: handing a class reference out of the lock costs a
        /// retain, where handing out a closure of generic type would allocate a thunk per value.
        @usableFromInline
        final class Handlers {
            @usableFromInline
            let receiveValue: (Input) -> Void
            @usableFromInline
            let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(receiveValue: @escaping (Input) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        @usableFromInline
        let lock = Mutex<Void>(())
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription
        @usableFromInline
        @exclusivity(unchecked)
        var handlers: Handlers?

        /// Makes a sink with the two closures.
        ///
        /// ```swift
        /// let sink = Subscribers.Sink<String, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
        /// ```
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            handlers = Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
        }

        /// The value closure; a closure that does nothing once the sink has completed or been
        /// cancelled.
        public var receiveValue: (Input) -> Void {
            lock.withLockUnchecked { handlers }?.receiveValue ?? { _ in }
        }

        /// The completion closure; a closure that does nothing once the sink has completed or
        /// been cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLockUnchecked { handlers }?.receiveCompletion ?? { _ in }
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

        /// Calls the value closure, unless the sink has completed or been cancelled.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            // `handlers` is nil once the sink has completed or been cancelled; before the
            // subscription arrives no value can (the publisher contract).
            lock.withLockUnchecked { handlers }?.receiveValue(value)
            return .none
        }

        /// Calls the completion closure once, then releases both closures.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            let handlers = lock.withLockUnchecked { () -> Handlers? in
                guard case .subscribed = status else { return nil }
                status = .terminal
                // Handed out of the lock so that whatever they capture is released outside it.
                defer { self.handlers = nil }
                return self.handlers
            }
            handlers?.receiveCompletion(completion)
        }

        /// Cancels the subscription and releases both closures; later calls do nothing.
        @inlinable
        public func cancel() {
            let (subscription, handlers) = lock.withLockUnchecked { () -> ((any Subscription)?, Handlers?) in
                let subscription = status.subscription
                status = .terminal
                // Handed out of the lock so that whatever they capture is released outside it.
                defer { self.handlers = nil }
                return (subscription, self.handlers)
            }
            withExtendedLifetime(handlers) {}
            subscription?.cancel()
        }

        /// `"Sink"`.
        public var description: String { "Sink" }

        /// Shows the sink's description.
        public var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        /// The description, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}
