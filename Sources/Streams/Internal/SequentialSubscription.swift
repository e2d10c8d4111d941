import Synchronization

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

    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Mutex<Void>(())

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var phase = Phase.first
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var decide: Decide?
    @usableFromInline
    @exclusivity(unchecked)
    var mapSecondFailure: ((Second.Failure) -> Downstream.Failure)?
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription)?
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
        self.downstream = downstream
        self.mapSecondFailure = mapSecondFailure
        self.decide = decide
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
            guard self.phase == phase, upstream == nil, let downstream else { return .cancel }
            upstream = subscription
            if !sentSubscription {
                sentSubscription = true
                return .handOver(downstream)
            }
            return .request(demand)
        }
        switch action {
        case .cancel:
            subscription.cancel()
        case .handOver(let downstream):
            downstream.receive(subscription: self)
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    /// What to do with a new upstream subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        case cancel
        case handOver(Downstream)
        case request(Subscribers.Demand)
    }

    @inlinable
    func receive(_ input: Downstream.Input, in phase: Phase) -> Subscribers.Demand {
        let downstream = lock.withLockUnchecked { () -> Downstream? in
            guard self.phase == phase else { return nil }
            demand -= 1
            return self.downstream
        }
        guard let downstream else { return .none }
        let additional = downstream.receive(input)
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receiveFirst(completion: Subscribers.Completion<First.Failure>) {
        guard let decide = lock.withLockUnchecked({ () -> Decide? in
            guard phase == .first else { return nil }
            phase = .second
            upstream = nil
            return decide
        }) else { return }
        switch decide(completion) {
        case .complete(let completion):
            finish(with: completion)
        case .switchTo(let second):
            second.receive(subscriber: SecondLink(parent: self))
        }
    }

    @inlinable
    func receiveSecond(completion: Subscribers.Completion<Second.Failure>) {
        guard let mapFailure = lock.withLockUnchecked({ () -> ((Second.Failure) -> Downstream.Failure)? in
            guard phase == .second else { return nil }
            return mapSecondFailure
        }) else { return }
        finish(with: completion.mapError(mapFailure))
    }

    /// Sends `completion` downstream and lets go of everything.
    @inlinable
    func finish(with completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (Downstream?, Any) in
            guard phase != .done else { return (nil, ()) }
            phase = .done
            return takeReferences()
        }
        taken.0?.receive(completion: completion)
    }

    /// Empties the references and returns them, so that they die outside the lock; call with
    /// the lock held.
    @inlinable
    func takeReferences() -> (Downstream?, Any) {
        defer {
            downstream = nil
            decide = nil
            mapSecondFailure = nil
            upstream = nil
        }
        return (downstream, (decide, mapSecondFailure, upstream))
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        let upstream = lock.withLockUnchecked { () -> (any Subscription)? in
            guard phase != .done else { return nil }
            self.demand += demand
            return self.upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let upstream = lock.withLockUnchecked { () -> (any Subscription)? in
            guard phase != .done else { return nil }
            phase = .done
            let upstream = self.upstream
            _ = takeReferences()
            return upstream
        }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream as Any, "demand": demand]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the first publisher on behalf of the parent.
    @usableFromInline
    struct FirstLink: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: SequentialSubscription
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

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
    }

    /// Subscribes to the second publisher on behalf of the parent.
    @usableFromInline
    struct SecondLink: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: SequentialSubscription
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

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
    }
}
