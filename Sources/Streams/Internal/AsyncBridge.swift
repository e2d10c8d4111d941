/// The subscriber behind `values`: it asks upstream for one value per `next()` and hands that
/// value, or the completion, to the task waiting in `next()`.
///
/// Cancelling the waiting task, or dropping the iterator, cancels the subscription; `next()`
/// then returns nil. After the completion has been handed over once, `next()` returns nil.
@usableFromInline
final class AsyncBridge<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    @usableFromInline
    typealias Continuation = UnsafeContinuation<Result<Input?, Failure>, Never>

    /// What `next()` does once it has left the lock.
    @usableFromInline
    enum NextAction {
        case wait
        case request(any Subscription)
        case resume(Result<Input?, Failure>)
    }

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    /// The task waiting in `next()`.
    @usableFromInline
    @exclusivity(unchecked)
    var waiting: Continuation?
    /// `next()` was called before the subscription arrived.
    @usableFromInline
    @exclusivity(unchecked)
    var requestPending = false
    /// A completion that arrived while no task was waiting.
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Failure>?
    /// The completion has been handed over, or the bridge cancelled: `next()` returns nil.
    @usableFromInline
    @exclusivity(unchecked)
    var exhausted = false

    @inlinable
    init() {}

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool? in
            guard case .awaitingSubscription = status, !exhausted else { return nil }
            status = .subscribed(subscription)
            defer { requestPending = false }
            return requestPending
        }
        switch accepted {
        case nil: subscription.cancel()
        case true?: subscription.request(.max(1))
        case false?: break
        }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let waiting = lock.withLockUnchecked { () -> Continuation? in
            defer { self.waiting = nil }
            return self.waiting
        }
        // Handed from the publisher's thread to the waiting task, as Combine's `values` does.
        nonisolated(unsafe) let result = Result<Input?, Failure>.success(input)
        waiting?.resume(returning: result)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let waiting = lock.withLockUnchecked { () -> Continuation? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            guard let waiting = self.waiting else {
                pendingCompletion = completion
                return nil
            }
            self.waiting = nil
            exhausted = true
            return waiting
        }
        waiting?.resume(returning: Self.result(of: completion))
    }

    /// Waits for the next value; nil once the stream has finished or been cancelled.
    @inlinable
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Result<Input?, Failure> {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Continuation) in
                let action = lock.withLockUnchecked { () -> NextAction in
                    if let completion = pendingCompletion {
                        pendingCompletion = nil
                        exhausted = true
                        return .resume(Self.result(of: completion))
                    }
                    guard !exhausted else { return .resume(.success(nil)) }
                    waiting = continuation
                    switch status {
                    case .subscribed(let subscription):
                        return .request(subscription)
                    case .awaitingSubscription:
                        requestPending = true
                        return .wait
                    case .terminal:
                        return .wait
                    }
                }
                switch action {
                case .wait: break
                case .request(let subscription): subscription.request(.max(1))
                case .resume(let result): continuation.resume(returning: result)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels the subscription and lets a waiting `next()` return nil.
    @inlinable
    func cancel() {
        let (upstream, waiting) = lock.withLockUnchecked { () -> (SubscriptionStatus, Continuation?) in
            exhausted = true
            pendingCompletion = nil
            defer {
                status = .terminal
                self.waiting = nil
            }
            return (status, self.waiting)
        }
        upstream.cancel()
        waiting?.resume(returning: .success(nil))
    }

    @inlinable
    static func result(of completion: Subscribers.Completion<Failure>) -> Result<Input?, Failure> {
        switch completion {
        case .finished: .success(nil)
        case .failure(let error): .failure(error)
        }
    }
}
