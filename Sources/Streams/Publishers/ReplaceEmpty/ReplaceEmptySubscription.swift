/// The subscription behind `replaceEmpty(with:)`: it passes everything on, and sends the
/// replacement before `.finished` when the upstream finishes without a value, once the
/// downstream has requested. Its state is a ``ReplaceEmptyStateMachine`` behind one lock.
///
/// Unlike Combine, it asks the upstream only for what the downstream requests (Combine asks
/// for `.unlimited` as well, which lets values through that were never requested).
@usableFromInline
// Unchecked: it holds the replacement value, which need not be Sendable.
final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let replacement: Downstream.Input
    @usableFromInline
    let state: LockedState<ReplaceEmptyStateMachine<Box<Downstream>>>

    @inlinable
    init(downstream: Downstream, replacement: Downstream.Input) {
        state = LockedState(ReplaceEmptyStateMachine(resources: Box(downstream)))
        self.replacement = replacement
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard case .handOver(let downstream, let demand) = state.withLock({ $0.subscribed(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = state.withLock({ $0.value() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let failed = if case .failure = completion { true } else { false }
        perform(state.withLock { $0.completed(failed: failed) }, completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        perform(state.withLock { $0.request(demand) }, .finished, demand)
    }

    /// Carries out `action` outside the lock: `completion` is what a `.complete` sends, `demand`
    /// what a `.forward` forwards.
    @inlinable
    func perform(
        _ action: ReplaceEmptyStateMachine<Box<Downstream>>.Action,
        _ completion: Subscribers.Completion<Downstream.Failure>, _ demand: Subscribers.Demand = .none
    ) {
        switch action {
        case .none:
            return
        case .complete(let downstream):
            downstream.value.receive(completion: completion)
        case .replace(let downstream):
            _ = downstream.value.receive(replacement)
            downstream.value.receive(completion: .finished)
        case .forward(let subscription):
            subscription.request(demand)
        }
    }

    @inlinable
    func cancel() {
        // The downstream leaves the lock with the subscription, to be released outside it.
        if case .cancel(let upstream, _) = state.withLock({ $0.cancel() }) { upstream.cancel() }
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
