import Streams

/// The subscription of `amb`, with its state in an ``AmbStateMachine``.
///
/// It subscribes to every contender (two for `amb(_:)`, any number for `Collection.amb()`)
/// through a `NumberedSideSubscriber` each, numbered with the contender's index, and only then
/// hands the downstream its subscription (``start()``), as CombineExt does. The losers are
/// cancelled, and the downstream called, outside the lock.
@usableFromInline
final class AmbSubscription<Downstream: Subscriber>: Subscription, NumberedSideSubscriberParent, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, Sendable
{
    @usableFromInline
    typealias NumberedInput = Downstream.Input
    @usableFromInline
    typealias NumberedFailure = Downstream.Failure
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
        state.withLock { $0.handedOver() }.perform()
    }

    // MARK: Contenders

    /// Subscribes to `contender` as contender number `side`, from 0.
    @inlinable
    func attach<Contender: Publisher>(_ contender: Contender, side: Int)
    where Contender.Output == Downstream.Input, Contender.Failure == Downstream.Failure {
        contender.receive(subscriber: NumberedSideSubscriber(parent: self, number: side))
    }

    @inlinable
    func receiveSide(subscription: any Subscription, number side: Int) {
        state.withLock { $0.receiveSubscription(subscription, from: side) }.apply(to: subscription)
    }

    @inlinable
    func receiveSide(_ input: Downstream.Input, number side: Int) -> Subscribers.Demand {
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
    func receiveSide(completion: Subscribers.Completion<Downstream.Failure>, number side: Int) {
        state.withLock { $0.receiveCompletion(completion, from: side) }.perform()
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
        state.withLock { $0.cancel() }.perform()
    }

    @usableFromInline
    var description: String { "Amb" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
