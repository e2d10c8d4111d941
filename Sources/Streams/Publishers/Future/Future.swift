/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure runs at once, inside `init`, exactly once; the first call of the promise wins.
/// Every subscriber, early or late, gets that one result: a success once it has asked for a
/// value, a failure at once. Wrap a `Future` in ``Deferred`` to start the work per subscriber
/// (and so make it retryable).
///
/// `Promise` is `@Sendable`, so it may be called from any thread or task.
///
/// ```swift
/// func checkUserName(_ name: String) -> Future<Bool, Never> {
///     Future { promise in
///         DispatchQueue.global().async { promise(.success(name.count >= 4)) }
///     }
/// }
/// ```
public final class Future<Output, Failure: Error>: Publisher, Sendable {
    /// Fulfils the future; only the first call counts.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    @usableFromInline
    let state = LockedState(FutureStateMachine<Output, Failure>())

    /// Makes a future and runs `attemptToFulfill` at once with its promise.
    ///
    /// ```swift
    /// let answer = Future<Int, Never> { promise in promise(.success(42)) }
    /// ```
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in self.fulfill(result) }
    }

    /// Records the first result and hands it to every waiting subscriber.
    @inlinable
    func fulfill(_ result: Result<Output, Failure>) {
        guard let waiting = state.withLock({ $0.fulfill(result) }) else { return }
        for conduit in waiting {
            conduit.fulfill(result)
        }
    }

    /// Attaches `subscriber`; it receives the result when there is one and it has demand.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(downstream: subscriber, parent: self)
        // A result already there waits in the conduit for the hand-over, where a request made
        // meanwhile sends it (as Combine's request does when the future has its result).
        if let result = state.withLock({ $0.subscribe(conduit) }) {
            conduit.fulfill(result)
        }
        conduit.start()
    }

    /// Forgets a cancelled subscriber.
    @inlinable
    func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        state.withLock { $0.remove(conduit) }
    }
}

/// The type-erased face of a future's subscription.
@usableFromInline
// Unchecked: a non-final class cannot be checked Sendable; its subclass keeps its state in a lock.
class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    /// Hands over the result; it is delivered once the subscriber can take it.
    @usableFromInline
    func fulfill(_ result: Result<Output, Failure>) {
        preconditionFailure("FutureConduitBase.fulfill(_:) is abstract")
    }
}

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
