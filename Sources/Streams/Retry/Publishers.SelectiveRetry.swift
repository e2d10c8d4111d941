extension Publisher {
    /// Retries the errors you choose, waiting between attempts with backoff and jitter, and never
    /// sooner than the server asked.
    ///
    /// After upstream fails with `error`, in this order:
    /// 1. if `shouldRetry(error)` is false, `error` is delivered;
    /// 2. if `maxRetries` retries have been made, `error` is delivered;
    /// 3. the wait is the larger of the backoff's delay and the error's `Retry-After` hint
    ///    (``RetryAfterProviding``); if `maxElapsed` is set and the retry would start later than
    ///    `maxElapsed` after the first subscription, `error` is delivered;
    /// 4. if the hint is longer than `retryAfterLimit`, `error` is delivered;
    /// 5. if a shared `budget` (``RetryBudget``) cannot pay for the retry, `error` is delivered;
    /// 6. otherwise `onRetry` is told, the operator waits on `scheduler` (even for a zero wait)
    ///    and subscribes to the upstream again.
    ///
    /// With a `budget`, every attempt that delivers a value or finishes refills it; a retry
    /// after a timeout costs its `timeoutCost`.
    ///
    /// With `transient`, for long-lived streams, a value starts the count again: the next
    /// failure is followed by retry 1, with the first backoff delay, and `maxElapsed` runs from
    /// that value.
    ///
    /// `onGiveUp` gets a ``RetryReport`` (the reason and the number of attempts) just before the
    /// error is delivered; it does not change what is delivered. StreamsResilience adds an
    /// overload with `events:`, told each attempt's start and end, each retry scheduled and the
    /// give-up.
    ///
    /// Giving up always delivers the last error unchanged. The downstream sees one
    /// subscription; its outstanding demand carries over to each new attempt. Cancelling, even
    /// while waiting, cancels the wait and never subscribes again; when another thread is busy
    /// with the retry, at most the one call it has already begun (`when`, `onRetry`, the
    /// scheduler, a subscription to the upstream) still runs, and nothing after it. See
    /// Docs/RetryAndBackoff.md.
    ///
    /// ```swift
    /// let profile = Deferred { api.fetchProfile() }
    ///     .retry(3, backoff: .exponential(initial: .milliseconds(200)), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func retry<S: Scheduler>(
        _ maxRetries: Int,
        when shouldRetry: @escaping (Failure) -> Bool = { $0.resolveCategory() == .retryable },
        backoff: Backoff,
        retryAfterLimit: Duration = RetryAfter.defaultLimit,
        maxElapsed: Duration? = nil,
        budget: RetryBudget? = nil,
        transient: Bool = false,
        scheduler: S,
        onRetry: ((RetryAttempt<Failure>) -> Void)? = nil,
        onGiveUp: ((RetryReport<Failure>) -> Void)? = nil
    ) -> Publishers.SelectiveRetry<Self, S> {
        retry(
            maxRetries, when: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed,
            budget: budget, transient: transient, scheduler: scheduler, random: SystemRandomNumberGenerator(),
            onRetry: onRetry, onGiveUp: onGiveUp)
    }

    /// `retry(_:when:backoff:scheduler:)` with the jitter drawn from `random`, so that tests and
    /// simulations get the same delays on every run.
    ///
    /// ```swift
    /// let retried = request.retry(3, backoff: .exponential(), scheduler: testScheduler,
    ///                             random: SeededRandomNumberGenerator(seed: 1))
    /// ```
    @inlinable
    public func retry<S: Scheduler, G: RandomNumberGenerator & Sendable>(
        _ maxRetries: Int,
        when shouldRetry: @escaping (Failure) -> Bool = { $0.resolveCategory() == .retryable },
        backoff: Backoff,
        retryAfterLimit: Duration = RetryAfter.defaultLimit,
        maxElapsed: Duration? = nil,
        budget: RetryBudget? = nil,
        transient: Bool = false,
        scheduler: S,
        random: G,
        onRetry: ((RetryAttempt<Failure>) -> Void)? = nil,
        onGiveUp: ((RetryReport<Failure>) -> Void)? = nil
    ) -> Publishers.SelectiveRetry<Self, S> {
        Publishers.SelectiveRetry(
            upstream: self, maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff,
            retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget, transient: transient,
            scheduler: scheduler, random: random, observer: nil, onRetry: onRetry, onGiveUp: onGiveUp)
    }
}

extension Publishers {
    /// A publisher that retries selected failures of its upstream with backoff, as
    /// `retry(_:when:backoff:scheduler:)` describes.
    ///
    /// ```swift
    /// let retried = Publishers.SelectiveRetry(upstream: request, maxRetries: 3, backoff: .exponential(), scheduler: DispatchQueue.main)
    /// ```
    public struct SelectiveRetry<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered unchanged on giving up.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to again on a retry.
        public let upstream: Upstream
        /// How many re-subscriptions may follow the first attempt.
        public let maxRetries: Int
        /// Which failures are retried.
        public let shouldRetry: (Upstream.Failure) -> Bool
        /// How long to wait before each retry.
        public let backoff: Backoff
        /// The longest server hint worth waiting for.
        public let retryAfterLimit: Duration
        /// The latest a retry may start, after the first subscription.
        public let maxElapsed: Duration?
        /// The retry budget this pipeline shares with others, if any.
        public let budget: RetryBudget?
        /// Whether a value starts the count, the backoff and `maxElapsed` again.
        public let transient: Bool
        /// Where the waits are timed and the upstream is subscribed again.
        public let scheduler: Context
        /// Told each attempt, retry and give-up, when StreamsResilience's `events:` is given.
        @usableFromInline
        package let observer: RetryEventObserver?
        /// Told about each retry before the wait.
        public let onRetry: ((RetryAttempt<Upstream.Failure>) -> Void)?
        /// Told why the retry gave up, just before the error is delivered.
        public let onGiveUp: ((RetryReport<Upstream.Failure>) -> Void)?

        @usableFromInline
        let makeRandom: @Sendable () -> any RandomNumberGenerator

        /// Makes a retrying publisher; see `retry(_:when:backoff:scheduler:)`.
        ///
        /// ```swift
        /// let retried = Publishers.SelectiveRetry(upstream: request, maxRetries: 3, backoff: .constant(.seconds(1)), scheduler: DispatchQueue.main)
        /// ```
        @inlinable
        public init<G: RandomNumberGenerator & Sendable>(
            upstream: Upstream,
            maxRetries: Int,
            shouldRetry: @escaping (Upstream.Failure) -> Bool = { $0.resolveCategory() == .retryable },
            backoff: Backoff,
            retryAfterLimit: Duration = RetryAfter.defaultLimit,
            maxElapsed: Duration? = nil,
            budget: RetryBudget? = nil,
            transient: Bool = false,
            scheduler: Context,
            random: G = SystemRandomNumberGenerator(),
            onRetry: ((RetryAttempt<Upstream.Failure>) -> Void)? = nil,
            onGiveUp: ((RetryReport<Upstream.Failure>) -> Void)? = nil
        ) {
            self.init(
                upstream: upstream, maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff,
                retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget, transient: transient,
                scheduler: scheduler, random: random, observer: nil, onRetry: onRetry, onGiveUp: onGiveUp)
        }

        /// The initializer every other one calls, with the observer StreamsResilience's
        /// `events:` makes.
        @inlinable
        package init<G: RandomNumberGenerator & Sendable>(
            upstream: Upstream,
            maxRetries: Int,
            shouldRetry: @escaping (Upstream.Failure) -> Bool,
            backoff: Backoff,
            retryAfterLimit: Duration,
            maxElapsed: Duration?,
            budget: RetryBudget?,
            transient: Bool,
            scheduler: Context,
            random: G,
            observer: RetryEventObserver?,
            onRetry: ((RetryAttempt<Upstream.Failure>) -> Void)?,
            onGiveUp: ((RetryReport<Upstream.Failure>) -> Void)?
        ) {
            precondition(
                maxRetries >= 0, "retry(_:when:backoff:scheduler:) requires a retry count of zero or more, got \(maxRetries)")
            self.upstream = upstream
            self.maxRetries = maxRetries
            self.shouldRetry = shouldRetry
            self.backoff = backoff
            self.retryAfterLimit = retryAfterLimit
            self.maxElapsed = maxElapsed
            self.budget = budget
            self.transient = transient
            self.scheduler = scheduler
            self.observer = observer
            self.onRetry = onRetry
            self.onGiveUp = onGiveUp
            makeRandom = { random }
        }

        /// Attaches `subscriber`; it sees one subscription however many attempts are made.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ResubscribingSubscription(upstream: upstream, policy: BackoffRetryPolicy(configuration: self), downstream: subscriber)
                .start()
        }
    }
}
