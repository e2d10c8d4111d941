import Streams

/// A concurrency limiter (a bulkhead) that many pipelines share: at most `maxConcurrent`
/// subscriptions run at once; up to `maxQueued` more wait for a permit, oldest first; others
/// fail at once with ``ResilienceError/limiterRejected(_:)``.
///
/// A subscription holds its permit until it completes or is cancelled. Cancelling a waiting
/// subscription takes it out of the queue at once. The defaults are Polly v8's concurrency
/// limiter: 1000 permits and no queue. Every method is thread-safe; the state is kept behind one
/// lock. A waiting subscription is started on the thread that released the permit; while one
/// thread starts waiting subscriptions, a permit released on another is handed to its
/// subscription and started by that thread, so that a long queue of subscriptions that end at
/// once is started in a loop, never one nested call per waiter.
///
/// ```swift
/// let images = ConcurrencyLimiter(maxConcurrent: 4, maxQueued: 100)   // share one per backend
/// let thumbnail = api.thumbnail(id).concurrencyLimiter(images)
/// ```
public final class ConcurrencyLimiter: Sendable {
    /// The most subscriptions that run at once.
    public let maxConcurrent: Int
    /// The most subscriptions that wait for a permit.
    public let maxQueued: Int
    /// Told each refusal.
    public let events: ResilienceEvents

    let state: LockedState<ConcurrencyLimiterStateMachine>

    /// Makes a limiter with every permit free, that tells `events` its refusals. `maxConcurrent`
    /// must be positive and `maxQueued` not negative.
    ///
    /// ```swift
    /// let limiter = ConcurrencyLimiter(maxConcurrent: 10)
    /// ```
    public init(maxConcurrent: Int = 1000, maxQueued: Int = 0, events: ResilienceEvents = .none) {
        precondition(maxConcurrent >= 1, "ConcurrencyLimiter requires maxConcurrent >= 1, got \(maxConcurrent)")
        precondition(maxQueued >= 0, "ConcurrencyLimiter requires maxQueued >= 0, got \(maxQueued)")
        self.maxConcurrent = maxConcurrent
        self.maxQueued = maxQueued
        self.events = events
        state = LockedState(ConcurrencyLimiterStateMachine(maxConcurrent: maxConcurrent, maxQueued: maxQueued))
    }

    /// The permits taken now.
    ///
    /// ```swift
    /// metrics.gauge("bulkhead.in_use", limiter.inUse)
    /// ```
    public var inUse: Int { state.withLock { $0.inUse } }

    /// The subscriptions waiting for a permit now.
    ///
    /// ```swift
    /// metrics.gauge("bulkhead.queued", limiter.queued)
    /// ```
    public var queued: Int { state.withLock { $0.queue.count } }

    @usableFromInline
    func acquire(_ waiter: any GateWaiter, during call: ResilienceEvents? = nil)
        -> ConcurrencyLimiterStateMachine.AcquireAction
    {
        let observed = events.isObserved(during: call)
        let (action, usage) = state.withLock { machine in
            (machine.acquire(waiter), observed ? (inUse: machine.inUse, queued: machine.queue.count) : nil)
        }
        switch action {
        case .reject(let refusal):
            events.emit(.limiterRejected(refusal), during: call)
        case .permit:
            if let usage { tellUsage(.admitted, usage, during: call) }
        case .enqueued:
            if let usage { tellUsage(.queued, usage, during: call) }
        }
        return action
    }

    /// Tells the observer the limiter's usage after `change`.
    private func tellUsage(_ change: LimiterUsage.Change, _ usage: (inUse: Int, queued: Int), during call: ResilienceEvents?) {
        events.emit(
            .limiterUsage(LimiterUsage(limiter: .concurrency, change: change, inUse: usage.inUse, queued: usage.queued)),
            during: call)
    }

    /// Tells the observer the usage after a permit was given back (`release`, `abandon`).
    private func tellReleased() {
        guard events.isObserved else { return }
        let usage = state.withLock { (inUse: $0.inUse, queued: $0.queue.count) }
        tellUsage(.released, usage, during: nil)
    }
}

extension ConcurrencyLimiter: SubscriptionGate {
    /// A call ended: its permit goes to the oldest waiting call, or back. When this caller
    /// wakes a call, it also wakes every call handed a permit meanwhile (see
    /// ``ConcurrencyLimiterStateMachine``), so that a queue of calls that end at once is worked
    /// through in a loop rather than one nested call per waiter.
    @usableFromInline
    func release() {
        guard case .wake(var waiter) = state.withLock({ $0.release() }) else { return tellReleased() }
        while true {
            waiter.gateOpened()
            guard let next = state.withLock({ $0.nextToWake() }) else { return tellReleased() }
            waiter = next
        }
    }

    @usableFromInline
    func abandon(_ waiter: ObjectIdentifier) {
        state.withLock { $0.abandon(waiter) }
        tellReleased()
    }
}
