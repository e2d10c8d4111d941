/// The subscription of ``Publishers/Buffer``; its phases are ``BufferStateMachine``'s. Whoever
/// finds nothing draining (an arriving value, a completion or a request) drains the buffer while
/// there is demand, so the subscriber is never called concurrently.
@usableFromInline
// Unchecked: it holds `makeError`, a closure that need not be Sendable.
final class BufferSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Machine = BufferStateMachine<Downstream, Upstream.Output, Upstream.Failure>

    @usableFromInline
    let makeError: (() -> Upstream.Failure)?
    @usableFromInline
    let state: LockedState<Machine>

    @inlinable
    init(downstream: Downstream, buffer: Publishers.Buffer<Upstream>) {
        let overflow: Machine.Overflow
        switch buffer.whenFull {
        case .dropNewest:
            overflow = .dropNewest
            makeError = nil
        case .dropOldest:
            overflow = .dropOldest
            makeError = nil
        case .customError(let make):
            overflow = .customError
            makeError = make
        }
        state = LockedState(
            Machine(
                downstream: downstream, size: max(buffer.size, 0), keepFull: buffer.prefetch == .keepFull,
                overflow: overflow))
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard case .request(let initial, let downstream) = state.withLock({ $0.subscription(subscription) }) else {
            subscription.cancel()
            return
        }
        // As in Combine, upstream is asked before the downstream has the subscription.
        subscription.request(initial)
        downstream.receive(subscription: self)
        state.withLock { $0.subscriptionHandedDownstream() }
        // A completion that arrived inside the initial request may be due now.
        _ = drain()
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch state.withLock({ $0.value(input) }) {
        case .ignore:
            return .none
        case .drain:
            // Inside a value, `.keepFull` returns the number of delivered values as demand.
            guard case .delivered(let count, _) = drain() else { return .none }
            return .max(count)
        case .makeError:
            // As in Combine, the failure waits for the downstream's next request.
            let error = makeError!()
            state.withLock { $0.overflowed(error) }?.cancel()
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        if state.withLock({ $0.completion(completion) }) {
            _ = drain()
        }
    }

    /// How a call to ``drain()`` ended.
    @usableFromInline
    enum DrainOutcome {
        /// Another call was draining, or the completion went out.
        case none
        /// The drain is over with `count` values sent; `.keepFull` asks `upstream` for that many
        /// again (nil for the other policies). Also after a `.customError` overflow's failure,
        /// with the upstream it cancelled, as in Combine.
        case delivered(Int, upstream: (any Subscription)?)
    }

    /// Sends buffered values while there is demand, then a completion when it is due, unless
    /// another call is already draining. Returns how many values `.keepFull` asks `upstream`
    /// for again.
    @inlinable
    func drain() -> DrainOutcome {
        guard state.withLock({ $0.beginDrain() }) else { return .none }
        var returned = Subscribers.Demand.none
        while true {
            switch state.withLock({ $0.drainStep(returned: returned) }) {
            case .send(let downstream, let value):
                returned = downstream.receive(value)
            case .complete(let downstream, let completion, _, let delivered, let upstream):
                downstream.receive(completion: completion)
                return upstream == nil ? .none : .delivered(delivered, upstream: upstream)
            case .stop(let delivered, let upstream):
                return .delivered(delivered, upstream: upstream)
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard state.withLock({ $0.request(demand) }) else { return }
        // Inside a request, `.keepFull` asks for the delivered values with a request.
        guard case .delivered(let delivered, let upstream?) = drain() else { return }
        upstream.request(.max(delivered))
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what it holds is released outside it.
        guard case .cancel(let upstream, _, _) = state.withLock({ $0.cancel() }) else { return }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "Buffer" }

    @usableFromInline
    var customMirror: Mirror {
        state.withLock { state in
            let terminal: Subscribers.Completion<Upstream.Failure>? =
                if case .completing(let completion) = state.phase { completion } else { nil }
            return Mirror(
                self,
                children: [
                    "values": state.buffered, "state": state.phase, "downstreamDemand": state.demand,
                    "terminal": terminal as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
