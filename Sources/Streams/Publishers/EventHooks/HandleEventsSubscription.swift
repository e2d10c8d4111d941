extension Publishers.HandleEvents {
    /// HandleEvents' subscription: it stands between upstream and downstream so that it sees
    /// requests and cancellation too; its phases are ``EventHooksStateMachine``'s. As in Combine,
    /// the hooks run for every event, also for a duplicate or late subscription (before it is
    /// cancelled), a request or cancel before the subscription, and `.none` demand; they are
    /// released on completion and on a cancel while subscribed. `print(_:to:)` uses it too, with
    /// its own `name`, hooks it keeps for good and a hook for every demand the downstream returns
    /// from `receive(_:)` (zero included).
    @usableFromInline
    // Unchecked: it holds `returnedDemandHook`, a closure that need not be Sendable.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        typealias Machine = EventHooksStateMachine<Downstream, Publishers.HandleEvents<Upstream>>

        @usableFromInline
        let name: String
        /// `print`'s log of every demand the downstream returns for a value; nil for
        /// `handleEvents`, which runs `receiveRequest` with a non-zero one.
        @usableFromInline
        let returnedDemandHook: ((Subscribers.Demand) -> Void)?
        @usableFromInline
        let state: LockedState<Machine>

        @inlinable
        init(
            name: String,
            hooks: Publishers.HandleEvents<Upstream>,
            returnedDemandHook: ((Subscribers.Demand) -> Void)? = nil,
            downstream: Downstream
        ) {
            self.name = name
            self.returnedDemandHook = returnedDemandHook
            state = LockedState(Machine(downstream: downstream, hooks: hooks, keepsHooks: returnedDemandHook != nil))
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let (hooks, downstream) = state.withLock { $0.subscription(subscription) }
            hooks?.receiveSubscription?(subscription)
            if let downstream {
                downstream.receive(subscription: self)
            } else {
                subscription.cancel()
            }
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            let (hooks, downstream) = state.withLock { $0.value() }
            hooks?.receiveOutput?(input)
            guard let downstream else { return .none }
            let demand = downstream.receive(input)
            if let returnedDemandHook {
                returnedDemandHook(demand)
            } else if demand > 0 {
                hooks?.receiveRequest?(demand)
            }
            return demand
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            let (hooks, downstream) = state.withLock { $0.completion() }
            hooks?.receiveCompletion?(completion)
            downstream?.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // As in Combine, `.none` is passed on like any other demand.
            let (hooks, upstream) = state.withLock { $0.request() }
            hooks?.receiveRequest?(demand)
            upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            let (hooks, upstream, _) = state.withLock { $0.cancel() }
            hooks?.receiveCancel?()
            upstream?.cancel()
        }

        @usableFromInline
        var description: String { name }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
