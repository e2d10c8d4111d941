/// The subscriber behind `values`: it asks upstream for one value per call to `next()` and hands
/// each value, or the completion, to a waiting call.
///
/// Several tasks may call `next()` at once (copies of an iterator share one bridge): each call
/// waits on its own, values go to the waiting calls in the order the calls were made, and a
/// completion or a cancellation resumes every waiting call. Cancelling a task waiting in
/// `next()`, calling `cancel()` or dropping the iterator cancels the subscription; `next()` then
/// returns nil.
///
/// Its state is an ``AsyncBridgeStateMachine`` behind one lock; continuations are resumed and the
/// subscription is called outside it.
@usableFromInline
package final class AsyncBridge<Input, Failure: Error>: Subscriber, Cancellable, Sendable {
    @usableFromInline
    package typealias Continuation = AsyncBridgeStateMachine<Input, Failure>.Continuation

    @usableFromInline
    package let state = LockedState(AsyncBridgeStateMachine<Input, Failure>())

    @inlinable
    package init() {}

    /// How many calls to `next()` are waiting.
    package var waitingCount: Int {
        state.withLock { $0.waiting.count }
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        switch state.withLock({ $0.receiveSubscription(subscription) }) {
        case .keep: break
        case .request(let demand): subscription.request(demand)
        case .cancel: subscription.cancel()
        }
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        switch state.withLock({ $0.receiveValue() }) {
        case .resume(let continuation):
            // Handed from the publisher's thread to the waiting task, as Combine's `values` does.
            nonisolated(unsafe) let result = Result<Input?, Failure>.success(input)
            continuation.resume(returning: result)
        case .endWaiting(let waiting):
            Self.resumeWithNil(waiting)
        case .unrequested:
            preconditionFailure("Received an output without requesting demand")
        }
        return .none
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Failure>) {
        guard case .end(let waiting, _) = state.withLock({ $0.receiveCompletion(completion) }),
            let oldest = waiting.first
        else { return }
        oldest.resume(returning: Self.result(of: completion))
        Self.resumeWithNil(waiting.dropFirst())
    }

    /// Waits for the next value; nil once the stream has finished or been cancelled.
    ///
    /// Runs on `actor` throughout. The continuation's closure names `actor`, which makes both
    /// closures isolated to it: a closure that captures no `isolated` parameter is nonisolated,
    /// hops to the global executor, and on a busy pool made a main-actor loop wait for a free
    /// thread before it could ask upstream for its next value.
    @inlinable
    package func next(isolation actor: isolated (any Actor)? = #isolation) async -> Result<Input?, Failure> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation(isolation: actor) { (continuation: Continuation) in
                // If the task was cancelled before this point, the handler has already ended the
                // bridge, and the call returns nil at once.
                switch state.withLock({ $0.next(continuation) }) {
                case .wait: break
                case .request(let subscription): subscription.request(.max(1))
                case .resume(let result): continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels the subscription (once, and only while subscribed) and lets every waiting
    /// `next()` return nil.
    @inlinable
    package func cancel() {
        guard case .end(let subscription, let waiting) = state.withLock({ $0.cancel() }) else { return }
        subscription?.cancel()
        Self.resumeWithNil(waiting)
    }

    @inlinable
    package static func resumeWithNil(_ waiting: some Sequence<Continuation>) {
        for continuation in waiting {
            continuation.resume(returning: .success(nil))
        }
    }

    @inlinable
    package static func result(of completion: Subscribers.Completion<Failure>) -> Result<Input?, Failure> {
        switch completion {
        case .finished: .success(nil)
        case .failure(let error): .failure(error)
        }
    }
}
