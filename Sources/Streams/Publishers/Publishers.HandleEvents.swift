extension Publisher {
    /// Runs closures when events pass through, before they are forwarded: for logging,
    /// metrics and debugging.
    ///
    /// `receiveRequest` sees both requests made through the subscription and the non-zero demand
    /// the downstream returns from receiving a value.
    ///
    /// ```swift
    /// let logged = request.handleEvents(
    ///     receiveSubscription: { _ in print("started") },
    ///     receiveOutput: { print("got", $0) },
    ///     receiveCompletion: { print("ended", $0) },
    ///     receiveCancel: { print("cancelled") })
    /// ```
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// A publisher that runs closures as events pass through.
    ///
    /// ```swift
    /// let logged = Publishers.HandleEvents(upstream: request, receiveOutput: { print($0) })
    /// ```
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream
        /// Runs when the subscription arrives.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Runs for every value.
        public var receiveOutput: ((Output) -> Void)?
        /// Runs for the completion.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        /// Runs when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Runs for every non-zero demand.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Makes a publisher that runs the given closures as `upstream`'s events pass.
        ///
        /// ```swift
        /// let logged = Publishers.HandleEvents(upstream: request, receiveCancel: { print("cancelled") })
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber` behind the hooks.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(name: "HandleEvents", hooks: self, downstream: subscriber))
        }
    }
}

extension Publishers.HandleEvents {
    /// HandleEvents' subscription: it stands between upstream and downstream so that it sees
    /// requests and cancellation too. The hooks are released on completion or cancel.
    /// `print(_:to:)` uses it too, with its own `name` and a separate hook for the demand the
    /// downstream returns from `receive(_:)`.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        let name: String
        @usableFromInline
        let lock = Lock()
        // Guarded by `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        var status = SubscriptionStatus.awaitingSubscription
        @usableFromInline
        @exclusivity(unchecked)
        var hooks: Publishers.HandleEvents<Upstream>?
        @usableFromInline
        @exclusivity(unchecked)
        var returnedDemandHook: ((Subscribers.Demand) -> Void)?
        @usableFromInline
        @exclusivity(unchecked)
        var downstream: Downstream?

        @inlinable
        init(
            name: String,
            hooks: Publishers.HandleEvents<Upstream>,
            returnedDemandHook: ((Subscribers.Demand) -> Void)? = nil,
            downstream: Downstream
        ) {
            self.name = name
            self.hooks = hooks
            self.returnedDemandHook = returnedDemandHook ?? hooks.receiveRequest
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let current = lock.withLockUnchecked { () -> (Downstream, Publishers.HandleEvents<Upstream>)? in
                guard case .awaitingSubscription = status, let downstream, let hooks else { return nil }
                status = .subscribed(subscription)
                return (downstream, hooks)
            }
            guard let (downstream, hooks) = current else {
                subscription.cancel()
                return
            }
            hooks.receiveSubscription?(subscription)
            downstream.receive(subscription: self)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            let current = lock.withLockUnchecked {
                () -> (Downstream, Publishers.HandleEvents<Upstream>, ((Subscribers.Demand) -> Void)?)? in
                guard case .subscribed = status, let downstream, let hooks else { return nil }
                return (downstream, hooks, returnedDemandHook)
            }
            guard let (downstream, hooks, returnedDemandHook) = current else { return .none }
            hooks.receiveOutput?(input)
            let demand = downstream.receive(input)
            if demand > 0 {
                returnedDemandHook?(demand)
            }
            return demand
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            let current = lock.withLockUnchecked { () -> (Downstream, Publishers.HandleEvents<Upstream>)? in
                guard case .subscribed = status, let downstream, let hooks else { return nil }
                status = .terminal
                self.downstream = nil
                self.hooks = nil
                returnedDemandHook = nil
                return (downstream, hooks)
            }
            guard let (downstream, hooks) = current else { return }
            hooks.receiveCompletion?(completion)
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // As in Combine, `.none` is passed on like any other demand.
            let current = lock.withLockUnchecked { () -> (any Subscription, Publishers.HandleEvents<Upstream>)? in
                guard case .subscribed(let subscription) = status, let hooks else { return nil }
                return (subscription, hooks)
            }
            guard let (subscription, hooks) = current else { return }
            hooks.receiveRequest?(demand)
            subscription.request(demand)
        }

        @inlinable
        func cancel() {
            let taken = lock.withLockUnchecked { () -> (any Subscription, Publishers.HandleEvents<Upstream>?, Downstream?)? in
                // Before the subscription a cancel is a no-op, as in Combine: a late subscription
                // is still accepted.
                guard case .subscribed(let subscription) = status else { return nil }
                status = .terminal
                defer {
                    hooks = nil
                    returnedDemandHook = nil
                    downstream = nil
                }
                return (subscription, hooks, downstream)
            }
            guard let (subscription, hooks, _) = taken else { return }
            hooks?.receiveCancel?()
            subscription.cancel()
        }

        @usableFromInline
        var description: String { name }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
