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
    let state = LockedState(FutureStateMachine())

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
        let resolution: FutureStateMachine.Resolution
        switch result {
        case .success(let value): resolution = .success(Box(value))
        case .failure(let error): resolution = .failure(Box(error))
        }
        guard let waiting = state.withLock({ $0.fulfill(resolution) }) else { return }
        for conduit in waiting {
            unsafeDowncast(conduit, to: FutureConduitBase<Output, Failure>.self).fulfill(result)
        }
    }

    /// Attaches `subscriber`; it receives the result when there is one and it has demand.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = FutureConduit(downstream: subscriber, parent: self)
        // A result already there waits in the conduit for the hand-over, where a request made
        // meanwhile sends it (as Combine's request does when the future has its result).
        if let resolution = state.withLock({ $0.subscribe(conduit) }) {
            conduit.fulfill(Self.result(of: resolution))
        }
        conduit.start()
    }

    /// The result, once the promise has been called.
    @inlinable
    var result: Result<Output, Failure>? {
        state.withLock { $0.result }.map(Self.result(of:))
    }

    /// The result the machine keeps.
    @inlinable
    static func result(of resolution: FutureStateMachine.Resolution) -> Result<Output, Failure> {
        switch resolution {
        case .success(let value): .success(unsafeDowncast(value, to: Box<Output>.self).value)
        case .failure(let error): .failure(unsafeDowncast(error, to: Box<Failure>.self).value)
        }
    }

    /// Forgets a cancelled subscriber.
    @inlinable
    func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        state.withLock { $0.remove(conduit) }
    }
}
