import Streams

/// The subscription of `amb`, with its state in an ``AmbStateMachine``.
///
/// It subscribes to every contender (two for `amb(_:)`, any number for `Collection.amb()`)
/// through a ``Contender`` each, which carries the contender's index, and only then hands the
/// downstream its subscription (``start()``), as CombineExt does. The losers are cancelled, and
/// the downstream called, outside the lock.
@usableFromInline
final class AmbSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias StateMachine = AmbStateMachine<Downstream>

    @usableFromInline
    let state: LockedState<StateMachine>

    @inlinable
    init(downstream: Downstream, contenders count: Int) {
        state = LockedState(StateMachine(downstream: downstream, contenders: count))
    }

    /// Hands the downstream its subscription, once every contender is subscribed; then
    /// delivers the completion that ended the race before, if any.
    @inlinable
    func start() {
        guard let downstream = state.withLock({ $0.handingOver() }) else { return }
        downstream.value.receive(subscription: self)
        guard case .complete(let downstream, let completion) = state.withLock({ $0.handedOver() }) else { return }
        downstream.value.receive(completion: completion)
    }

    // MARK: Contenders

    @inlinable
    func receive(subscription: any Subscription, from side: Int) {
        switch state.withLock({ $0.receiveSubscription(subscription, from: side) }) {
        case .requestOne: subscription.request(.max(1))
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input, from side: Int) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue(input, from: side) }) {
        case .deliver(let downstream, let losers):
            for loser in losers { loser.cancel() }
            let additional = downstream.value.receive(input)
            // The winner's own demand is returned to it rather than requested.
            switch state.withLock({ $0.delivered(additional) }) {
            case .request(_, let more): return more
            case .complete(let downstream, let completion): downstream.value.receive(completion: completion)
            case .none: break
            }
            return .none
        case .hold(let losers):
            for loser in losers { loser.cancel() }
            return .none
        case .none:
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, from side: Int) {
        switch state.withLock({ $0.receiveCompletion(completion, from: side) }) {
        case .complete(let downstream, let losers):
            for loser in losers { loser.cancel() }
            downstream.value.receive(completion: completion)
        case .cancel(let losers):
            for loser in losers { loser.cancel() }
        case .none:
            break
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        switch state.withLock({ $0.request(demand) }) {
        case .deliverHeld(let downstream, let value):
            let additional = downstream.value.receive(value)
            switch state.withLock({ $0.delivered(additional) }) {
            case .request(let winner, let more): if more > 0 { winner.request(more) }
            case .complete(let downstream, let completion): downstream.value.receive(completion: completion)
            case .none: break
            }
        case .forward(let winner, let more):
            winner.request(more)
        case .none:
            break
        }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        guard case .cancel(let live, _) = state.withLock({ $0.cancel() }) else { return }
        for subscription in live { subscription.cancel() }
    }

    @usableFromInline
    var description: String { "Amb" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to one of the contenders on behalf of the subscription.
    @usableFromInline
    struct Contender: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        @usableFromInline
        typealias Input = Downstream.Input
        @usableFromInline
        typealias Failure = Downstream.Failure

        @usableFromInline
        let parent: AmbSubscription
        /// The contender's index, from 0.
        @usableFromInline
        let side: Int
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: AmbSubscription, side: Int) {
            self.parent = parent
            self.side = side
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, from: side)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            parent.receive(input, from: side)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receive(completion: completion, from: side)
        }

        @usableFromInline
        var description: String { "Amb" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
