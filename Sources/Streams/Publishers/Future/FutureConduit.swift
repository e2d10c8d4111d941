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
    let state: LockedState<FutureConduitStateMachine<Downstream>>

    @inlinable
    init(downstream: Downstream, parent: Future<Output, Failure>) {
        state = LockedState(FutureConduitStateMachine(downstream: downstream, parent: parent))
    }

    /// Hands over the subscription, then delivers a result that arrived meanwhile.
    @inlinable
    func start() {
        guard let downstream = state.withLock({ $0.subscriber }) else { return }
        downstream.receive(subscription: self)
        deliver(state.withLock { $0.handedOver() })
    }

    @inlinable
    override func fulfill(_ result: Result<Output, Failure>) {
        deliver(state.withLock { $0.fulfill(result) })
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        deliver(state.withLock { $0.request() })
    }

    /// Sends the result, if the machine said it can go now, to the downstream.
    @inlinable
    func deliver(_ delivery: FutureConduitStateMachine<Downstream>.Delivery?) {
        guard let delivery else { return }
        switch delivery.result {
        case .success(let value):
            _ = delivery.downstream.receive(value)
            delivery.downstream.receive(completion: .finished)
        case .failure(let error):
            delivery.downstream.receive(completion: .failure(error))
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
        parent.remove(self)
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
                    "parent": state.parent as Any, "downstream": state.downstream as Any,
                    "hasAnyDemand": state.hasAnyDemand, "subject": state.parent as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
