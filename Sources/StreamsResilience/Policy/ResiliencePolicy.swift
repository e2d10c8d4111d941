import Streams

/// The resilience strategies of a call, stacked in the standard order, as one reusable value.
///
/// A policy only describes: it holds settings, never state, so one value serves any number of
/// publishers of any type. The objects that callers share (the circuit breaker, the retry budget,
/// the limiters) are made from it by a ``ResiliencePipeline``, one per dependency, or lazily per
/// key by a ``ResilienceRegistry``.
///
/// Each stage is optional (nil leaves it out). A subscription meets them from the outermost in:
///
/// 1. `rateLimit` (a ``RateLimiter``) and `concurrencyLimit` (a ``ConcurrencyLimiter``),
/// 2. `totalTimeout` (`deadline(_:scheduler:)`, across every attempt),
/// 3. `retry` (the selective retry, with its shared `RetryBudget`; its `maxElapsed` is the
///    total timeout, so it never waits only to be cut off),
/// 4. `hedging` (a hook for a ``ResilienceStage``, applied around each retry attempt),
/// 5. `pushback` (a ``PushbackLimiter``: each attempt waits while the server has asked every
///    call to wait, and keeps within the quota the server announces),
/// 6. `circuitBreaker` (a ``CircuitBreaker``),
/// 7. `attemptTimeout` (`attemptTimeout(_:scheduler:)`, for each attempt).
///
/// This is the order of Microsoft's standard resilience handler for HTTP: a limiter sheds load
/// before anything starts, the total timeout bounds what the caller waits, each retry goes
/// through the breaker (so a retry never knocks on an open circuit), and each attempt has its
/// own timeout, which the breaker counts as a failure.
///
/// ```swift
/// var policy = ResiliencePolicy.standardHTTP
/// policy.retry?.maxRetries = 5
/// policy.attemptTimeout = .seconds(2)
/// let registry = ResilienceRegistry(policy: policy)
/// let user = Deferred { api.user(id) }
///     .resilient(registry.pipeline(for: "api.example.com"), scheduler: DispatchQueue.main)
/// ```
public struct ResiliencePolicy: Sendable {
    /// The shared concurrency limiter's settings (a bulkhead), or nil for none.
    public var concurrencyLimit: ConcurrencyLimit?
    /// The shared rate limiter's settings (a token bucket), or nil for none.
    public var rateLimit: RateLimit?
    /// The longest the whole call may take, every attempt and wait included, or nil for no limit.
    public var totalTimeout: Duration?
    /// How failed attempts are retried, or nil for no retry.
    public var retry: Retry?
    /// Told why the retry gave up, with the error it delivers (unchanged), just before it is
    /// delivered: the retry's `onGiveUp`, for every publisher the policy guards. The report's
    /// error is the stream's ``ResilienceError``, as `any Error`. Default nil.
    ///
    /// ```swift
    /// policy.onRetryGiveUp = { report in metrics.increment("retry.gaveUp.\(report.reason)") }
    /// ```
    public var onRetryGiveUp: (@Sendable (RetryReport<any Error>) -> Void)?
    /// A stage between the retry and the circuit breaker, such as hedging, or nil for none.
    public var hedging: (any ResilienceStage)?
    /// Whether the server's pushback holds back every call that shares the pipeline, and how:
    /// the shared ``PushbackLimiter``'s settings, or nil for none (each call then waits out only
    /// its own `Retry-After`, in the retry). On in ``standardHTTP``.
    ///
    /// ```swift
    /// policy.pushback = .init(maxWait: .seconds(10))     // refuse rather than wait longer
    /// policy.pushback?.pacesToQuota = false              // honour Retry-After, ignore quotas
    /// ```
    public var pushback: Pushback?
    /// The shared circuit breaker's settings, or nil for no breaker. Its `slowCallThreshold`
    /// makes calls slower than it count as failed.
    public var circuitBreaker: CircuitBreaker.Configuration?
    /// The categories of the errors that the circuit breaker counts as failed calls: the
    /// breaker's `when`. A failure of another category counts as a success (a bad request says
    /// nothing about the backend's health). Default `[.retryable]`, as `circuitBreaker(_:when:scheduler:)`.
    ///
    /// ```swift
    /// policy.circuitBreakerFailures = [.retryable, .nonRetryable]   // every failure counts
    /// ```
    public var circuitBreakerFailures: Set<ErrorCategory>
    /// The longest one attempt may take, or nil for no limit.
    public var attemptTimeout: Duration?
    /// The seed of the retry's jitter, for runs that must repeat exactly (tests, simulations);
    /// nil draws it from the system's generator.
    public var jitterSeed: UInt64?
    /// Which outcomes the retry handles beside the categories of its `retryOn`: an attempt is
    /// retried when its error's category is one of `retryOn` or this closure returns true for it,
    /// and an attempt that returned a value is retried when this closure returns true for the
    /// value (a `200` whose body says "error"). When the retry gives up on a handled value, the
    /// call delivers that value (Polly v8's `ShouldHandle`). Default nil: errors by category
    /// alone, every value accepted. A call that is not safe to repeat is still never retried
    /// after a timeout. See ``ResilienceOutcome`` for what the closure gets.
    ///
    /// ```swift
    /// policy.retryWhen = { outcome in
    ///     if case .value(let reply as RPCReply) = outcome { return reply.error?.code == -32603 }
    ///     return false
    /// }
    /// ```
    public var retryWhen: (@Sendable (ResilienceOutcome) -> Bool)?
    /// Which outcomes the circuit breaker counts as failed calls beside the categories of
    /// `circuitBreakerFailures`: an error it returns true for, or a value (the call's first) it
    /// returns true for. Default nil: errors by category alone, every value a success.
    ///
    /// ```swift
    /// policy.circuitBreakerWhen = { ($0.value as? HTTPReply)?.status == 503 }
    /// ```
    public var circuitBreakerWhen: (@Sendable (ResilienceOutcome) -> Bool)?

    /// Makes a policy with the stages given; every stage left out is skipped.
    ///
    /// ```swift
    /// let policy = ResiliencePolicy(
    ///     retry: .init(maxRetries: 2, backoff: .exponential(initial: .milliseconds(100))),
    ///     attemptTimeout: .seconds(1))
    /// ```
    public init(
        concurrencyLimit: ConcurrencyLimit? = nil,
        rateLimit: RateLimit? = nil,
        totalTimeout: Duration? = nil,
        retry: Retry? = nil,
        onRetryGiveUp: (@Sendable (RetryReport<any Error>) -> Void)? = nil,
        hedging: (any ResilienceStage)? = nil,
        pushback: Pushback? = nil,
        circuitBreaker: CircuitBreaker.Configuration? = nil,
        circuitBreakerFailures: Set<ErrorCategory> = [.retryable],
        attemptTimeout: Duration? = nil,
        jitterSeed: UInt64? = nil
    ) {
        self.concurrencyLimit = concurrencyLimit
        self.rateLimit = rateLimit
        self.totalTimeout = totalTimeout
        self.retry = retry
        self.onRetryGiveUp = onRetryGiveUp
        retryWhen = nil
        self.hedging = hedging
        self.pushback = pushback
        self.circuitBreaker = circuitBreaker
        self.circuitBreakerFailures = circuitBreakerFailures
        circuitBreakerWhen = nil
        self.attemptTimeout = attemptTimeout
        self.jitterSeed = jitterSeed
    }

    /// The policy of Microsoft's standard resilience handler for HTTP clients
    /// (`AddStandardResilienceHandler` in Microsoft.Extensions.Http.Resilience, built on Polly v8),
    /// outermost first:
    ///
    /// | stage | default |
    /// | --- | --- |
    /// | concurrency limiter | 1000 permits, no queue |
    /// | total timeout | 30 s |
    /// | retry | 3 retries, exponential from 2 s (doubling, at most 30 s), with jitter; a shared budget of 500 tokens, 5 a retry (10 after a timeout), 1 back a success |
    /// | pushback | on: a server's `Retry-After` or spent quota holds back every call, for at most 60 s; calls kept within the announced quota |
    /// | circuit breaker | opens at a 10% failure ratio over 30 s with at least 100 calls; breaks 5 s |
    /// | attempt timeout | 10 s |
    ///
    /// The handler's retry has no budget; this preset adds the AWS SDKs' retry quota (500, 5, 10, 1),
    /// which keeps a fleet of clients from multiplying an outage. Pushback follows the handler's
    /// own default of honouring `Retry-After` (Polly's `ShouldRetryAfterHeader`, on), extended
    /// from the call that was told to every call of the pipeline, as grpc-swift's retry throttle
    /// and server pushback are on wherever a retry policy is. Its jitter is Streams' `.equal`
    /// (each wait between half and all of 2, 4, 8 s), the nearest to Polly's jittered curve.
    ///
    /// ```swift
    /// let registry = ResilienceRegistry(policy: .standardHTTP)
    /// ```
    public static var standardHTTP: ResiliencePolicy {
        ResiliencePolicy(
            concurrencyLimit: ConcurrencyLimit(maxConcurrent: 1000, maxQueued: 0),
            totalTimeout: .seconds(30),
            retry: Retry(
                maxRetries: 3,
                backoff: .exponential(initial: .seconds(2), multiplier: 2, maxDelay: .seconds(30), jitter: .equal),
                budget: Budget()),
            pushback: Pushback(),
            circuitBreaker: CircuitBreaker.Configuration(
                failureRatio: 0.1, window: .time(.seconds(30)), minimumThroughput: 100, breakDuration: .seconds(5)),
            attemptTimeout: .seconds(10))
    }

    /// Only a retry: `maxRetries` retries with `backoff`, no budget, no other stage.
    ///
    /// ```swift
    /// let policy = ResiliencePolicy.retrying(3, backoff: .exponential())
    /// ```
    public static func retrying(_ maxRetries: Int, backoff: Backoff, budget: Budget? = nil) -> ResiliencePolicy {
        ResiliencePolicy(retry: Retry(maxRetries: maxRetries, backoff: backoff, budget: budget))
    }
}

extension ResiliencePolicy {
    /// The settings of a policy's ``ConcurrencyLimiter``.
    ///
    /// ```swift
    /// policy.concurrencyLimit = .init(maxConcurrent: 20, maxQueued: 100)
    /// ```
    public struct ConcurrencyLimit: Sendable, Hashable {
        /// The most calls that run at once.
        public var maxConcurrent: Int
        /// The most calls that wait for a permit.
        public var maxQueued: Int

        /// Polly's defaults: 1000 permits, no queue.
        ///
        /// ```swift
        /// let limit = ResiliencePolicy.ConcurrencyLimit(maxConcurrent: 8)
        /// ```
        public init(maxConcurrent: Int = 1000, maxQueued: Int = 0) {
            self.maxConcurrent = maxConcurrent
            self.maxQueued = maxQueued
        }
    }

    /// The settings of a policy's ``RateLimiter``.
    ///
    /// ```swift
    /// policy.rateLimit = .init(permits: 50, per: .seconds(1), maxWait: .milliseconds(200))
    /// ```
    public struct RateLimit: Sendable, Hashable {
        /// The calls admitted per `period`, on average.
        public var permits: Int
        /// The period of `permits`.
        public var period: Duration
        /// The most calls admitted at once after a quiet time; nil for `permits`.
        public var burst: Int?
        /// The longest a call waits for a token before it is refused.
        public var maxWait: Duration
        /// How the permits are counted. Default `.tokenBucket`; a window matches "N per minute"
        /// quotas.
        public var algorithm: RateLimiter.Algorithm

        /// Describes a rate limiter of `permits` per `period` (a token bucket unless told).
        ///
        /// ```swift
        /// let limit = ResiliencePolicy.RateLimit(permits: 100, per: .seconds(60))
        /// let quota = ResiliencePolicy.RateLimit(permits: 100, per: .seconds(60), algorithm: .slidingWindow)
        /// ```
        public init(
            permits: Int, per period: Duration, burst: Int? = nil, maxWait: Duration = .zero,
            algorithm: RateLimiter.Algorithm = .tokenBucket
        ) {
            self.permits = permits
            self.period = period
            self.burst = burst
            self.maxWait = maxWait
            self.algorithm = algorithm
        }
    }

    /// The settings of a policy's selective retry.
    ///
    /// Which failures are retried follows their `ErrorCategory` (`retryOn`, by default the
    /// retryable ones): the upstream's retryable errors, timed-out attempts, open circuits (after
    /// the break's time left) and limiter refusals; never a passed total timeout or a circuit
    /// isolated by hand.
    ///
    /// ```swift
    /// policy.retry = .init(maxRetries: 2, backoff: .constant(.seconds(1)), budget: .init(capacity: 100))
    /// policy.retry?.transient = true   // a long-lived stream: a value starts the count again
    /// ```
    public struct Retry: Sendable, Hashable {
        /// How many re-subscriptions may follow the first attempt.
        public var maxRetries: Int
        /// How long to wait before each retry.
        public var backoff: Backoff
        /// The longest server hint (or time left in a break) worth waiting for.
        public var retryAfterLimit: Duration
        /// The shared retry budget's settings, or nil for no budget.
        public var budget: Budget?
        /// Whether a value starts the count, the backoff and the total timeout's `maxElapsed`
        /// again, for long-lived streams (Reactor's `transientErrors`). Default false.
        public var transient: Bool
        /// The categories of the errors that are retried: the retry's `when`, applied to the
        /// ``ResilienceError`` (which forwards the upstream error's own category). Default
        /// `[.retryable]`.
        public var retryOn: Set<ErrorCategory>

        /// Describes a retry.
        ///
        /// ```swift
        /// let retry = ResiliencePolicy.Retry(maxRetries: 3, backoff: .exponential(), budget: .init())
        /// ```
        public init(
            maxRetries: Int, backoff: Backoff, retryAfterLimit: Duration = RetryAfter.defaultLimit, budget: Budget? = nil,
            transient: Bool = false, retryOn: Set<ErrorCategory> = [.retryable]
        ) {
            self.maxRetries = maxRetries
            self.backoff = backoff
            self.retryAfterLimit = retryAfterLimit
            self.budget = budget
            self.transient = transient
            self.retryOn = retryOn
        }
    }

    /// The settings of a policy's `RetryBudget`.
    ///
    /// ```swift
    /// let budget = ResiliencePolicy.Budget(capacity: 50)   // 10 retries in hand
    /// ```
    public struct Budget: Sendable, Hashable {
        /// The most tokens the bucket holds; it starts full.
        public var capacity: Int
        /// The tokens one retry takes.
        public var retryCost: Int
        /// The tokens one retry after a timeout takes; nil for twice `retryCost`.
        public var timeoutCost: Int?
        /// The tokens one successful attempt gives back.
        public var successRefill: Int

        /// The AWS SDKs' retry quota: 500 tokens, 5 a retry, 10 a retry after a timeout, 1 back
        /// a success.
        ///
        /// ```swift
        /// let budget = ResiliencePolicy.Budget()
        /// let cheapTimeouts = ResiliencePolicy.Budget(timeoutCost: 5)
        /// ```
        public init(capacity: Int = 500, retryCost: Int = 5, timeoutCost: Int? = nil, successRefill: Int = 1) {
            self.capacity = capacity
            self.retryCost = retryCost
            self.timeoutCost = timeoutCost
            self.successRefill = successRefill
        }
    }
}

extension ResiliencePolicy {
    /// The settings of a policy's ``PushbackLimiter``: how long a call may wait for the instant a
    /// server named, and whether calls are kept within the quota each response announces.
    ///
    /// ```swift
    /// policy.pushback = .init(maxWait: .seconds(30), pacesToQuota: true)
    /// ```
    public struct Pushback: Sendable, Hashable {
        /// The longest a call waits for the server's instant before it is refused (with the
        /// wait as its hint). Default `RetryAfter.defaultLimit`, the retry's own limit.
        public var maxWait: Duration
        /// Whether the rate-limit headers of every response (not only refusals) keep the calls
        /// within the server's announced quota. Default true.
        public var pacesToQuota: Bool

        /// Describes the pushback stage.
        ///
        /// ```swift
        /// let pushback = ResiliencePolicy.Pushback()
        /// ```
        public init(maxWait: Duration = RetryAfter.defaultLimit, pacesToQuota: Bool = true) {
            self.maxWait = maxWait
            self.pacesToQuota = pacesToQuota
        }
    }
}
