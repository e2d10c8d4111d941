import Foundation
import Streams

/// A ``ResiliencePolicy`` made real for one dependency: the policy, and the objects its callers
/// share (the circuit breaker, the retry budget, the limiters, the pushback limiter), made once
/// from it.
///
/// Every publisher guarded with `resilient(_:scheduler:)` by the same pipeline draws from the
/// same breaker, budget and limiters, so a pipeline stands for one backend (one host, say): a
/// ``ResilienceRegistry`` makes them lazily per key. Time is read from the scheduler of each
/// pipeline that uses it; use one pipeline only with schedulers of one kind. Thread-safe.
///
/// ```swift
/// let payments = ResiliencePipeline(.standardHTTP, events: ResilienceEvents { log($0) })
/// let charge = Deferred { api.charge(order) }.resilient(payments, scheduler: DispatchQueue.main)
/// if payments.circuitBreaker?.currentState == .open { showOfflineBanner() }
/// ```
public final class ResiliencePipeline: Sendable {
    /// The stages and their settings.
    public let policy: ResiliencePolicy
    /// The operation's name, told with every event (a registry's key); nil when unnamed.
    public let name: String?
    /// Told what every stage does, with the pipeline's name as the operation.
    public let events: ResilienceEvents
    /// The shared concurrency limiter, when the policy has one.
    public let concurrencyLimiter: ConcurrencyLimiter?
    /// The shared rate limiter, when the policy has one.
    public let rateLimiter: RateLimiter?
    /// The shared circuit breaker, when the policy has one.
    public let circuitBreaker: CircuitBreaker?
    /// The shared limiter the server steers (its `Retry-After` and announced quota), when the
    /// policy has ``ResiliencePolicy/pushback``.
    public let pushbackLimiter: PushbackLimiter?
    /// The shared retry budget, when the policy's retry has one.
    public let retryBudget: RetryBudget?

    /// The seeded source of each subscription's jitter seed, when the policy has a seed.
    private let seeds: LockedState<SeededRandomNumberGenerator?>
    /// What `execute` may skip before the first attempt.
    @usableFromInline
    let asyncShortcut: AsyncShortcut

    /// Makes the shared objects of `policy`, each telling `events` what it does, with `name` as
    /// the operation of every event (see ``ResilienceEventContext``). A setting out of
    /// range stops the program, as the object it makes would; in a debug build, settings that
    /// defeat one another (``ResiliencePolicy/lint()``) are printed to standard error.
    ///
    /// ```swift
    /// let pipeline = ResiliencePipeline(.standardHTTP, name: "payments")
    /// ```
    public convenience init(_ policy: ResiliencePolicy, name: String? = nil, events: ResilienceEvents = .none) {
        self.init(policy, name: name, events: events, carryingOver: nil)
    }

    /// Makes the shared objects of `policy`, keeping those of `previous` whose settings are the
    /// same (with their state: the breaker's window, the budget's tokens, the limiters' permits):
    /// a registry key's pipeline after its policy was replaced.
    init(_ policy: ResiliencePolicy, name: String?, events: ResilienceEvents, carryingOver previous: ResiliencePipeline?) {
        self.policy = policy
        self.name = name
        let events = events.named(name)
        self.events = events
        let old = previous?.policy
        if let previous, old?.concurrencyLimit == policy.concurrencyLimit {
            concurrencyLimiter = previous.concurrencyLimiter
        } else {
            concurrencyLimiter = policy.concurrencyLimit.map {
                ConcurrencyLimiter(maxConcurrent: $0.maxConcurrent, maxQueued: $0.maxQueued, events: events)
            }
        }
        if let previous, old?.rateLimit == policy.rateLimit {
            rateLimiter = previous.rateLimiter
        } else {
            rateLimiter = policy.rateLimit.map {
                RateLimiter(
                    permits: $0.permits, per: $0.period, burst: $0.burst, maxWait: $0.maxWait, algorithm: $0.algorithm,
                    events: events)
            }
        }
        if let previous, old?.circuitBreaker == policy.circuitBreaker {
            circuitBreaker = previous.circuitBreaker
        } else {
            circuitBreaker = policy.circuitBreaker.map { CircuitBreaker($0, events: events) }
        }
        if let previous, old?.pushback == policy.pushback {
            pushbackLimiter = previous.pushbackLimiter
        } else {
            pushbackLimiter = policy.pushback.map {
                PushbackLimiter(maxWait: $0.maxWait, pacesToQuota: $0.pacesToQuota, events: events)
            }
        }
        if let previous, old?.retry?.budget == policy.retry?.budget {
            retryBudget = previous.retryBudget
        } else {
            retryBudget = policy.retry?.budget.map {
                RetryBudget(
                    capacity: $0.capacity, retryCost: $0.retryCost, timeoutCost: $0.timeoutCost,
                    successRefill: $0.successRefill)
            }
        }
        seeds = LockedState(policy.jitterSeed.map { SeededRandomNumberGenerator(seed: $0) })
        asyncShortcut = AsyncShortcut(policy: policy, events: events)
        if let retry = policy.retry {
            precondition(
                retry.maxRetries >= 0, "ResiliencePolicy requires a retry count of zero or more, got \(retry.maxRetries)")
        }
        if let totalTimeout = policy.totalTimeout {
            precondition(totalTimeout >= .zero, "ResiliencePolicy requires a total timeout of zero or more, got \(totalTimeout)")
        }
        if let attemptTimeout = policy.attemptTimeout {
            precondition(
                attemptTimeout >= .zero, "ResiliencePolicy requires an attempt timeout of zero or more, got \(attemptTimeout)")
        }
        #if DEBUG
        // Settings that defeat one another are told, not refused: a test may mean them.
        for problem in policy.lint() {
            FileHandle.standardError.write(Data("ResiliencePolicy: \(problem)\n".utf8))
        }
        #endif
    }

    /// The server asked, at `now`, that no call of this pipeline start for `wait`: for a
    /// response the pipeline does not see itself (read outside `resilient` or `execute`).
    /// Nothing happens when the policy has no ``ResiliencePolicy/pushback``.
    ///
    /// ```swift
    /// pipeline.pushBack(for: .seconds(2), at: DispatchQueue.main.now)
    /// ```
    public func pushBack<Instant: TimelineInstant>(for wait: Duration, at now: Instant) {
        pushbackLimiter?.pushBack(for: wait, at: now)
    }

    /// A response read at `now` announced `quota`: the pipeline's calls keep within it. For a
    /// response the pipeline does not see itself; nothing happens when the policy has no
    /// ``ResiliencePolicy/pushback``.
    ///
    /// ```swift
    /// pipeline.report(ServerQuota(limit: 100, remaining: 7, reset: .seconds(12)), at: DispatchQueue.main.now)
    /// ```
    public func report<Instant: TimelineInstant>(_ quota: ServerQuota, at now: Instant) {
        pushbackLimiter?.report(quota, at: now)
    }

    /// The jitter generator of one subscription: seeded from the pipeline's own sequence when the
    /// policy has a seed (so every subscription draws different delays, the same on every run),
    /// or the system's.
    @usableFromInline
    func makeRandom() -> any RandomNumberGenerator & Sendable {
        guard policy.jitterSeed != nil else { return SystemRandomNumberGenerator() }
        let seed = seeds.withLock { generator in generator?.next() }
        guard let seed else { return SystemRandomNumberGenerator() }
        return SeededRandomNumberGenerator(seed: seed)
    }
}
