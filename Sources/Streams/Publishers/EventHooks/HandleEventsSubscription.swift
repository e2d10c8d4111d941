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
        typealias Machine = EventHooksStateMachine<Downstream, EventHooks<Output, Failure>>

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
            hooks: EventHooks<Output, Failure>,
            returnedDemandHook: ((Subscribers.Demand) -> Void)? = nil,
            downstream: Downstream
        ) {
            self.name = name
            self.returnedDemandHook = returnedDemandHook
            state = LockedState(Machine(downstream: downstream, hooks: hooks, keepsHooks: returnedDemandHook != nil))
        }

        @inlinable
        func receive(subscription: any Subscription) {
            switch state.withLock({ $0.subscription(subscription) }) {
            case .runHooks(let hooks):
                hooks?.receiveSubscription?(subscription)
                subscription.cancel()
            case .forward(let hooks, let downstream):
                hooks?.receiveSubscription?(subscription)
                downstream.receive(subscription: self)
            }
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            let hooks: EventHooks<Output, Failure>?
            let downstream: Downstream
            switch state.withLock({ $0.value() }) {
            case .runHooks(let held):
                held?.receiveOutput?(input)
                return .none
            case .forward(let held, let target):
                held?.receiveOutput?(input)
                hooks = held
                downstream = target
            }
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
            switch state.withLock({ $0.completion() }) {
            case .runHooks(let hooks):
                hooks?.receiveCompletion?(completion)
            case .forward(let hooks, let downstream):
                hooks?.receiveCompletion?(completion)
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            // As in Combine, `.none` is passed on like any other demand.
            switch state.withLock({ $0.request() }) {
            case .runHooks(let hooks):
                hooks?.receiveRequest?(demand)
            case .forward(let hooks, let upstream):
                hooks?.receiveRequest?(demand)
                upstream.request(demand)
            }
        }

        @inlinable
        func cancel() {
            switch state.withLock({ $0.cancel() }) {
            case .runHooks(let hooks):
                hooks?.receiveCancel?()
            case .cancel(let hooks, let upstream, _):
                hooks?.receiveCancel?()
                upstream.cancel()
            }
        }

        @usableFromInline
        var description: String { name }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
