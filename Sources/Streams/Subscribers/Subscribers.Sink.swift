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
    @inline(__always)
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        // `Just`, `Fail`, `Empty` and the like deliver their events without the sink and its
        // subscription; `catch` of a failed `Fail` and the like attaches to its recovery (see
        // `Publisher._sinkDirectly(receiveCompletion:receiveValue:)`).
        if let cancellable = _sinkDirectly(receiveCompletion: receiveCompletion, receiveValue: receiveValue) {
            return cancellable
        }
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
    @inline(__always)
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers {
    /// A subscriber that asks for unlimited values on subscription and calls closures for the
    /// values and the completion.
    ///
    /// Usually made by `sink(receiveCompletion:receiveValue:)`. A second subscription is
    /// cancelled; input after the completion or after `cancel()` is ignored. As in Combine, input
    /// before any subscription is delivered, and `cancel()` before one does nothing.
    ///
    /// ```swift
    /// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// [1, 2].publisher.receive(subscriber: sink)
    /// ```
    ///
    /// Unchecked `Sendable`, as Combine's: it calls its closures, which need not be `Sendable`,
    /// from the publisher's thread.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        /// The two closures, in one object: a class reference in a field of a generic class is
        /// released without looking its type up, where an optional closure field is not.
        @usableFromInline
        final class Handlers {
            @usableFromInline
            let receiveValue: (Input) -> Void
            @usableFromInline
            let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(receiveValue: @escaping (Input) -> Void, receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void)
            {
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        /// Keeps the value path free of locks and retains (see ``DeliveryGate``).
        @usableFromInline
        let gate = DeliveryGate()
        @usableFromInline
        let state: LockedState<SinkState>
        /// The handlers, unretained, for deliveries. Not guarded by the lock: it never changes,
        /// and the gate keeps every use of it (a delivery, or the completion sent by whoever
        /// closed the gate) before the release of the handlers, after which it is never used.
        @usableFromInline
        let borrowedHandlers: Unmanaged<Handlers>

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
            let handlers = Handlers(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
            state = LockedState(SinkState(handlers: handlers))
            borrowedHandlers = .passUnretained(handlers)
        }

        /// The value closure; a closure that does nothing once the sink has completed or been
        /// cancelled.
        ///
        /// ```swift
        /// sink.receiveValue(1)   // calls the closure given to init
        /// ```
        public var receiveValue: (Input) -> Void {
            handlers?.receiveValue ?? { _ in }
        }

        /// The completion closure; a closure that does nothing once the sink has completed or
        /// been cancelled.
        ///
        /// ```swift
        /// sink.receiveCompletion(.finished)   // calls the closure given to init
        /// ```
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            handlers?.receiveCompletion ?? { _ in }
        }

        /// The closures, unless released.
        var handlers: Handlers? {
            state.withLock { $0.handlers }.map { unsafeDowncast($0, to: Handlers.self) }
        }

        /// Keeps the first subscription and asks it for unlimited values; cancels any other.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = state.withLock { state in
                guard state.phase == .awaitingSubscription else { return false }
                state.phase = .subscribed
                state.upstream = subscription
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
            guard gate.enter() else { return .none }
            borrowedHandlers._withUnsafeGuaranteedRef { $0.receiveValue(value) }
            if !gate.leave() {
                // Cancelled or completed during the call, which left the release to this delivery.
                release()
            }
            return .none
        }

        /// Calls the completion closure once, then releases both closures.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            // As in Combine, a completion counts before any subscription too.
            // The upstream subscription is moved out, and released outside the lock.
            var upstream: any Subscription = NoUpstream()
            let first = state.withLock { $0.terminate(into: &upstream) { $0 != .terminated } }
            guard first else { return }
            let previous = gate.close()
            guard previous != .closed else { return }
            // A delivery under way (a completion sent from inside the value closure) keeps the
            // closures alive until it ends, and releases them then.
            borrowedHandlers._withUnsafeGuaranteedRef { $0.receiveCompletion(completion) }
            if previous == .open {
                release()
            }
        }

        /// Cancels the subscription and releases both closures; later calls do nothing.
        ///
        /// Before any subscription it does nothing, as in Combine: the closures are kept and a
        /// later subscription is still accepted.
        @inlinable
        public func cancel() {
            // Only a subscribed sink has anything to cancel: before its subscription it keeps
            // waiting for one, and after completing or cancelling it has let go of everything.
            var upstream: any Subscription = NoUpstream()
            let cancelled = state.withLock { $0.terminate(into: &upstream) { $0 == .subscribed } }
            guard cancelled else { return }
            if gate.close() == .open {
                release()
            }
            upstream.cancel()
        }

        /// Drops both closures, outside the lock so that whatever they capture is released
        /// outside it. Called once, as the gate decides.
        @inlinable
        func release() {
            let released = state.withLock { state in
                defer { state.handlers = nil }
                return state.handlers
            }
            withExtendedLifetime(released) {}
        }

        /// `"Sink"`.
        public var description: String { "Sink" }

        /// Shows the sink's description.
        public var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        /// The description, for playgrounds.
        public var playgroundDescription: Any { description }
    }
}
