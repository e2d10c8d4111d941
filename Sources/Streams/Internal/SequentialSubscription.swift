/// What `SequentialSubscription` does when its first publisher completes.
@usableFromInline
enum SequentialNext<Second: Publisher, Failure: Error> {
    /// Complete downstream with this.
    case complete(Subscribers.Completion<Failure>)
    /// Subscribe to `Second` and carry on with it.
    case switchTo(Second)
}

/// The subscription behind the operators that carry one downstream from a first publisher over
/// to a second: `catch`, `tryCatch` (on failure) and `append`/`prepend` (on finish).
///
/// The downstream sees one subscription for the whole stream. The outstanding demand is counted
/// so that it can be requested from the second publisher when it takes over.
@usableFromInline
final class SequentialSubscription<First: Publisher, Second: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where First.Output == Downstream.Input, Second.Output == Downstream.Input {
    @usableFromInline
    typealias Decide = (Subscribers.Completion<First.Failure>) -> SequentialNext<Second, Downstream.Failure>

    @usableFromInline
    enum Phase {
        case first, second, done
    }

    /// What the subscription holds until it ends, in one object: handing a class reference out
    /// of the lock costs a retain, where handing out a closure of generic type would allocate a
    /// thunk, and the object is released without looking its type up.
    @usableFromInline
    final class Core {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let decide: Decide
        @usableFromInline
        let mapSecondFailure: (Second.Failure) -> Downstream.Failure

        @inlinable
        init(downstream: Downstream, decide: @escaping Decide, mapSecondFailure: @escaping (Second.Failure) -> Downstream.Failure)
        {
            self.downstream = downstream
            self.decide = decide
            self.mapSecondFailure = mapSecondFailure
        }
    }

    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var phase = Phase.first
    /// Nil once the subscription has ended.
    @usableFromInline
    @exclusivity(unchecked)
    var core: Core?
    /// The current publisher's subscription; `.awaitingSubscription` before it arrives.
    @usableFromInline
    @exclusivity(unchecked)
    var upstream = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var sentSubscription = false

    @inlinable
    init(
        name: String,
        downstream: Downstream,
        mapSecondFailure: @escaping (Second.Failure) -> Downstream.Failure,
        decide: @escaping Decide
    ) {
        self.name = name
        core = Core(downstream: downstream, decide: decide, mapSecondFailure: mapSecondFailure)
    }

    /// Subscribes to the first publisher.
    @inlinable
    func start(with first: First) {
        first.receive(subscriber: FirstLink(parent: self))
    }

    // MARK: Events from the current publisher

    @inlinable
    func receive(subscription: any Subscription, in phase: Phase) {
        let action = lock.withLockUnchecked { () -> SubscriptionAction in
            guard self.phase == phase, upstream.subscription == nil, let core else { return .cancel }
            upstream = .subscribed(subscription)
            if !sentSubscription {
                sentSubscription = true
                return .handOver(core)
            }
            return .request(demand)
        }
        switch action {
        case .cancel:
            subscription.cancel()
        case .handOver(let core):
            core.downstream.receive(subscription: self)
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    /// What to do with a new upstream subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        case cancel
        case handOver(Core)
        case request(Subscribers.Demand)
    }

    @inlinable
    func receive(_ input: Downstream.Input, in phase: Phase) -> Subscribers.Demand {
        let core = lock.withLockUnchecked { () -> Core? in
            guard self.phase == phase else { return nil }
            demand -= 1
            return self.core
        }
        guard let core else { return .none }
        let additional = core.downstream.receive(input)
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receiveFirst(completion: Subscribers.Completion<First.Failure>) {
        guard
            let core = lock.withLockUnchecked({ () -> Core? in
                guard phase == .first else { return nil }
                phase = .second
                upstream = .awaitingSubscription
                return core
            })
        else { return }
        switch core.decide(completion) {
        case .complete(let completion):
            finish(with: completion)
        case .switchTo(let second):
            second.receive(subscriber: SecondLink(parent: self))
        }
    }

    @inlinable
    func receiveSecond(completion: Subscribers.Completion<Second.Failure>) {
        guard
            let core = lock.withLockUnchecked({ () -> Core? in
                guard phase == .second else { return nil }
                return core
            })
        else { return }
        finish(with: completion.mapError(core.mapSecondFailure))
    }

    /// Sends `completion` downstream and lets go of everything.
    @inlinable
    func finish(with completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (core: Core?, upstream: SubscriptionStatus) in
            guard phase != .done else { return (nil, .terminal) }
            phase = .done
            return takeReferences()
        }
        taken.core?.downstream.receive(completion: completion)
    }

    /// Empties the references and returns them, so that they die outside the lock; call with
    /// the lock held.
    @inlinable
    func takeReferences() -> (core: Core?, upstream: SubscriptionStatus) {
        defer {
            core = nil
            upstream = .terminal
        }
        return (core, upstream)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, catch traps on `.none`; concatenate forwards it.
        precondition(demand > 0 || name == "Concatenate", "API Violation: demand must not be zero")
        let upstream = lock.withLockUnchecked { () -> SubscriptionStatus in
            guard phase != .done else { return .terminal }
            self.demand += demand
            return self.upstream
        }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (core: Core?, upstream: SubscriptionStatus) in
            guard phase != .done else { return (nil, .terminal) }
            phase = .done
            return takeReferences()
        }
        taken.upstream.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        guard name != "Concatenate" else { return Mirror(self, children: []) }
        return lock.withLockUnchecked {
            Mirror(self, children: ["downstream": core?.downstream as Any, "demand": demand])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the first publisher on behalf of the parent.
    @usableFromInline
    struct FirstLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: SequentialSubscription

        /// The parent's: as in Combine, both sides report the one inner.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: SequentialSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, in: .first)
        }

        @inlinable
        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            parent.receive(input, in: .first)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<First.Failure>) {
            parent.receiveFirst(completion: completion)
        }

        @usableFromInline
        var description: String { parent.name }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }

    /// Subscribes to the second publisher on behalf of the parent.
    @usableFromInline
    struct SecondLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        let parent: SequentialSubscription

        /// The parent's: as in Combine, both sides report the one inner.
        @inlinable
        var combineIdentifier: CombineIdentifier { CombineIdentifier(parent) }

        @inlinable
        init(parent: SequentialSubscription) {
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, in: .second)
        }

        @inlinable
        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            parent.receive(input, in: .second)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Second.Failure>) {
            parent.receiveSecond(completion: completion)
        }

        @usableFromInline
        var description: String { parent.name }

        @usableFromInline
        var customMirror: Mirror { parent.customMirror }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
