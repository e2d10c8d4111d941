import Streams

extension Publisher {
    /// The selective retry, `retry(_:when:backoff:scheduler:)`, telling `events` each attempt's
    /// start and end (with its duration, on schedulers whose time is a ``TimelineInstant``), each
    /// retry scheduled and the give-up with its reason. The events change nothing that is
    /// delivered.
    ///
    /// ```swift
    /// let events = ResilienceEvents { print($0) }
    /// let profile = Deferred { api.fetchProfile() }
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, events: events)
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
        events: ResilienceEvents,
        onRetry: ((RetryAttempt<Failure>) -> Void)? = nil,
        onGiveUp: ((RetryReport<Failure>) -> Void)? = nil
    ) -> Publishers.SelectiveRetry<Self, S> {
        retry(
            maxRetries, when: shouldRetry, backoff: backoff, retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed,
            budget: budget, transient: transient, scheduler: scheduler, random: SystemRandomNumberGenerator(),
            events: events, onRetry: onRetry, onGiveUp: onGiveUp)
    }

    /// The selective retry with `events`, its jitter drawn from `random`.
    ///
    /// ```swift
    /// let retried = request.retry(3, backoff: .exponential(), scheduler: testScheduler,
    ///                             random: SeededRandomNumberGenerator(seed: 1), events: events)
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
        events: ResilienceEvents,
        onRetry: ((RetryAttempt<Failure>) -> Void)? = nil,
        onGiveUp: ((RetryReport<Failure>) -> Void)? = nil
    ) -> Publishers.SelectiveRetry<Self, S> {
        Publishers.SelectiveRetry(
            upstream: self, maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff,
            retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget, transient: transient,
            scheduler: scheduler, random: random, observer: events.retryObserver, onRetry: onRetry,
            onGiveUp: onGiveUp)
    }
}
