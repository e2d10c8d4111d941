/// One subscriber's subscription to a ``Future``.
@usableFromInline
// Unchecked, as its base class: a non-final class cannot be checked Sendable.
final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let state: LockedState<FutureConduitStateMachine>

    @inlinable
    init(downstream: Downstream, parent: Future<Output, Failure>) {
        state = LockedState(FutureConduitStateMachine(downstream: Box(downstream), parent: parent))
    }

    /// The machine's downstream, which is always this subscription's.
    @inlinable
    @inline(__always)
    func typed(_ downstream: AnyObject) -> Downstream {
        unsafeDowncast(downstream, to: Box<Downstream>.self).value
    }

    /// The machine's future, which is always this subscription's.
    @inlinable
    @inline(__always)
    func typed(parent: AnyObject) -> Future<Output, Failure> {
        unsafeDowncast(parent, to: Future<Output, Failure>.self)
    }

    /// Hands over the subscription, then delivers a result that arrived meanwhile.
    @inlinable
    func start() {
        guard let downstream = state.withLock({ $0.subscriber }) else { return }
        typed(downstream).receive(subscription: self)
        deliver(state.withLock { $0.handedOver() })
    }

    @inlinable
    override func fulfill(_ result: Result<Output, Failure>) {
        let outcome: FutureConduitStateMachine.Outcome
        switch result {
        case .success: outcome = .success
        case .failure: outcome = .failure
        }
        deliver(state.withLock { $0.fulfill(outcome) })
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        deliver(state.withLock { $0.request() })
    }

    /// Sends the result, if the machine said it can go now, to the downstream.
    @inlinable
    func deliver(_ delivery: FutureConduitStateMachine.Delivery?) {
        guard let delivery else { return }
        // A delivery is made only once the future has its result, which never changes.
        guard let result = typed(parent: delivery.parent).result else {
            preconditionFailure("FutureConduit internal inconsistency: a delivery without a result")
        }
        let downstream = typed(delivery.downstream)
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
        if delivery.thenLetsParentGo {
            // The future is released here, outside the lock.
            withExtendedLifetime(state.withLock { $0.delivered() }) {}
        }
    }

    @inlinable
    func cancel() {
        // The downstream is released here, outside the lock.
        guard case .release(let downstream, let parent) = state.withLock({ $0.cancel() }) else { return }
        typed(parent: parent).remove(self)
        withExtendedLifetime(downstream) {}
    }

    @usableFromInline
    var description: String { "Future" }

    @usableFromInline
    var customMirror: Mirror {
        state.withLock { state in
            Mirror(
                self,
                children: [
                    "parent": state.parent.map(typed(parent:)) as Any,
                    "downstream": state.downstream.map { typed($0) } as Any,
                    "hasAnyDemand": state.hasAnyDemand, "subject": state.parent.map(typed(parent:)) as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
