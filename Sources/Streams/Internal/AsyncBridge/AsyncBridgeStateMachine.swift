/// The state of an ``AsyncBridge``: a value with no lock and no callouts. Each event method
/// updates it and returns what the bridge must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription`: each call to `next()` waits. The subscription → `subscribed`, and
///   is asked once for one value per call still waiting. A value (out of contract) lets every
///   waiting call return nil. A completion or `cancel` → `terminated` (`completing` for a
///   failure that finds no call waiting).
/// - `subscribed(subscription)`: each call to `next()` waits and asks for one value. A value goes
///   to the oldest waiting call; one that finds no call waiting is a broken contract (the bridge
///   traps). A completion or `cancel` → `terminated` (or `completing`, as above); a second
///   subscription is cancelled.
/// - `completing(failure)`: the upstream failed while no call was waiting; the next call throws
///   the failure → `terminated`, as does `cancel`, which drops it.
/// - `terminated`: every call returns nil at once.
///
/// In the last two phases a subscription is cancelled, and values and completions change
/// nothing. Calls wait only before them, oldest first: every move out of `subscribed` or
/// `awaitingSubscription` hands them all out to be resumed. Before the subscription, the demand owed to it is the number of waiting calls.
@usableFromInline
package struct AsyncBridgeStateMachine<Input, Failure: Error> {
    @usableFromInline
    package typealias Continuation = UnsafeContinuation<Result<Input?, Failure>, Never>

    @usableFromInline
    package enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        case completing(failure: Failure)
        case terminated
    }

    @usableFromInline
    package var phase = Phase.awaitingSubscription
    /// The calls to `next()` waiting for a value, oldest first.
    @usableFromInline
    package var waiting: [Continuation] = []

    @inlinable
    package init() {}

    /// What the bridge does with a subscription once it has left the lock.
    @usableFromInline
    package enum SubscriptionAction {
        /// Accepted; no call is waiting yet.
        case keep
        /// Accepted: ask it for the calls that were made before it arrived.
        case request(Subscribers.Demand)
        /// A second subscription, or one after the end.
        case cancel
    }

    /// The upstream subscription arrived.
    @inlinable
    package mutating func receiveSubscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase else { return .cancel }
        phase = .subscribed(subscription)
        return waiting.isEmpty ? .keep : .request(.max(waiting.count))
    }

    /// What the bridge does with a value once it has left the lock.
    @usableFromInline
    package enum ValueAction {
        /// Resume the oldest waiting call with the value.
        case resume(Continuation)
        /// Out of contract (before the subscription, or after the end): the waiting calls
        /// return nil.
        case endWaiting([Continuation])
        /// Subscribed, but no call asked for it.
        case unrequested
    }

    /// The upstream sent a value.
    @inlinable
    package mutating func receiveValue() -> ValueAction {
        guard case .subscribed = phase else { return .endWaiting(takeWaiting()) }
        guard !waiting.isEmpty else { return .unrequested }
        return .resume(waiting.removeFirst())
    }

    /// What the bridge does with a completion once it has left the lock.
    @usableFromInline
    package enum CompletionAction {
        /// Already ended.
        case ignore
        /// Ended now: the oldest waiting call gets the completion, the others return nil. The
        /// subscription the bridge held is handed out to be let go outside the lock.
        case end(waiting: [Continuation], released: (any Subscription)?)
    }

    /// The upstream completed.
    @inlinable
    package mutating func receiveCompletion(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
        let released: (any Subscription)?
        switch phase {
        case .awaitingSubscription: released = nil
        case .subscribed(let subscription): released = subscription
        case .completing, .terminated: return .ignore
        }
        let waiting = takeWaiting()
        if waiting.isEmpty, case .failure(let error) = completion {
            phase = .completing(failure: error)
        } else {
            phase = .terminated
        }
        return .end(waiting: waiting, released: released)
    }

    /// What `next()` does once it has left the lock.
    @usableFromInline
    package enum NextAction {
        /// The call waits; the subscription will be asked when it arrives.
        case wait
        /// The call waits: ask the subscription for one value.
        case request(any Subscription)
        /// The call returns at once.
        case resume(Result<Input?, Failure>)
    }

    /// A task called `next()`.
    @inlinable
    package mutating func next(_ continuation: Continuation) -> NextAction {
        switch phase {
        case .awaitingSubscription:
            waiting.append(continuation)
            return .wait
        case .subscribed(let subscription):
            waiting.append(continuation)
            return .request(subscription)
        case .completing(let failure):
            // Handed out once: the bridge keeps the error no longer than it must.
            phase = .terminated
            return .resume(.failure(failure))
        case .terminated:
            return .resume(.success(nil))
        }
    }

    /// What `cancel()` does once it has left the lock.
    @usableFromInline
    package enum CancelAction {
        /// Already ended: nothing goes upstream. A kept failure, dropped, is handed out to be let
        /// go outside the lock.
        case ignore(released: Failure?)
        /// Ended now: cancel the subscription, if there is one, and let every waiting call
        /// return nil.
        case end(cancelling: (any Subscription)?, waiting: [Continuation])
    }

    /// The subscriber was cancelled, or a task waiting in `next()` was.
    @inlinable
    package mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription:
            phase = .terminated
            return .end(cancelling: nil, waiting: takeWaiting())
        case .subscribed(let subscription):
            phase = .terminated
            return .end(cancelling: subscription, waiting: takeWaiting())
        case .completing(let failure):
            phase = .terminated
            return .ignore(released: failure)
        case .terminated:
            return .ignore(released: nil)
        }
    }

    /// Removes and returns every waiting call, oldest first.
    @inlinable
    package mutating func takeWaiting() -> [Continuation] {
        guard !waiting.isEmpty else { return [] }
        defer { waiting = [] }
        return waiting
    }
}
