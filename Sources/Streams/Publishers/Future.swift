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
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// Fulfils the future; only the first call counts.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var result: Result<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var waiting: [FutureConduitBase<Output, Failure>] = []

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
        let waiting = lock.withLockUnchecked { () -> [FutureConduitBase<Output, Failure>] in
            guard self.result == nil else { return [] }
            self.result = result
            defer { self.waiting = [] }
            return self.waiting
        }
        for conduit in waiting {
            conduit.fulfill(result)
        }
    }

    /// Attaches `subscriber`; it receives the result when there is one and it has demand.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(downstream: subscriber, parent: self)
        let result = lock.withLockUnchecked { () -> Result<Output, Failure>? in
            if let result = self.result { return result }
            waiting.append(conduit)
            return nil
        }
        conduit.start()
        if let result {
            conduit.fulfill(result)
        }
    }

    /// Forgets a cancelled subscriber.
    @inlinable
    func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        lock.withLockUnchecked {
            waiting.removeAll { $0 === conduit }
        }
    }
}

/// The type-erased face of a future's subscription.
@usableFromInline
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
final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var parent: Future<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var result: Result<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var hasDemand = false
    @usableFromInline
    @exclusivity(unchecked)
    var started = false

    @inlinable
    init(downstream: Downstream, parent: Future<Output, Failure>) {
        self.downstream = downstream
        self.parent = parent
    }

    /// Hands over the subscription, then delivers a result that arrived meanwhile.
    @inlinable
    func start() {
        guard let downstream = lock.withLockUnchecked({ downstream }) else { return }
        downstream.receive(subscription: self)
        deliverIfReady { started = true }
    }

    @inlinable
    override func fulfill(_ result: Result<Output, Failure>) {
        deliverIfReady { self.result = result }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        deliverIfReady { hasDemand = true }
    }

    /// Applies `change` under the lock, then delivers the result if it can go now: after
    /// `start()`, and for a success only once there is demand.
    @inlinable
    func deliverIfReady(after change: () -> Void) {
        let ready = lock.withLockUnchecked { () -> (Downstream, Result<Output, Failure>, Any)? in
            change()
            guard started, let downstream, let result else { return nil }
            if case .success = result, !hasDemand { return nil }
            defer {
                self.downstream = nil
                self.parent = nil
                hasDemand = false
            }
            return (downstream, result, parent as Any)
        }
        guard let (downstream, result, _) = ready else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (Downstream?, Future<Output, Failure>?) in
            defer {
                downstream = nil
                parent = nil
            }
            return (downstream, parent)
        }
        taken.1?.remove(self)
    }

    @usableFromInline
    var description: String { "Future" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(
                self,
                children: [
                    "parent": parent as Any, "downstream": downstream as Any, "hasAnyDemand": hasDemand,
                    "subject": parent as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
