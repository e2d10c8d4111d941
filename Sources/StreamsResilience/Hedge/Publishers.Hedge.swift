import Streams

extension Publisher {
    /// Hedges a request: when no attempt has sent a value within `delay`, subscribes to the
    /// upstream once more beside the attempts already running, and the first attempt to send a
    /// value (or to finish) wins; the others are cancelled at once. Meant for single-value
    /// publishers whose latency has a long tail (a request that sometimes hangs on one
    /// connection or one replica).
    ///
    /// - At most `maxAttempts` attempts are made in all (the first included); the next starts
    ///   `delay` after the latest one started, or at once when an attempt fails with an error
    ///   for which `isNonFatal` is true (by default, a `.retryable` one).
    /// - A failure for which `isNonFatal` is false ends the stream with that error and cancels
    ///   the other attempts. When every attempt has failed and no more can be made, the last
    ///   failure is delivered, unchanged.
    /// - The winner's values and completion then pass as they are, and the downstream's demand
    ///   goes to it; while the race lasts, each attempt is asked for one value, and the first
    ///   one waits for demand.
    /// - Each extra attempt takes `retryCost` from the shared `budget` (the same bucket retries
    ///   draw from), and is not made while `breaker` is not closed. A refused attempt uses up
    ///   its place. The winning attempt refills the budget. To have each attempt's outcome
    ///   counted by a breaker, put `circuitBreaker` inside the hedge.
    /// - `events` is told each extra attempt (``ResilienceEvent/hedgeStarted(attempt:afterFailure:)``).
    ///
    /// With `isSafeToRepeat` false (a POST without an `Idempotency-Key`: pass
    /// `SentRequest(request).isSafeToRepeat` from StreamsNetworking), the call is never hedged:
    /// one attempt is made, since a hedge is a second copy of the call.
    ///
    /// The defaults, one extra attempt after 2 seconds, are Polly v8's; gRPC's hedging policy
    /// has the same shape (a delay, a number of attempts, non-fatal errors). Cancelling cancels
    /// every attempt and the pending delay at once, and lets go of the upstream, the closure and
    /// the downstream.
    ///
    /// ```swift
    /// let quote = Deferred { api.quote(symbol) }
    ///     .hedge(maxAttempts: 3, delay: .milliseconds(300), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func hedge<S: Scheduler>(
        maxAttempts: Int = 2,
        delay: Duration = .seconds(2),
        when isNonFatal: @escaping (Failure) -> Bool = { $0.resolveCategory() == .retryable },
        budget: RetryBudget? = nil,
        breaker: CircuitBreaker? = nil,
        isSafeToRepeat: Bool = true,
        scheduler: S,
        events: ResilienceEvents = .none
    ) -> Publishers.Hedge<Self, S> {
        Publishers.Hedge(
            upstream: self, maxAttempts: isSafeToRepeat ? maxAttempts : 1, delay: delay, isNonFatal: isNonFatal, budget: budget,
            breaker: breaker, scheduler: scheduler, events: events)
    }
}

extension Publishers {
    /// A publisher that hedges its upstream with further attempts, as
    /// `hedge(maxAttempts:delay:when:budget:breaker:isSafeToRepeat:scheduler:events:)` describes.
    ///
    /// ```swift
    /// let hedged = Publishers.Hedge(upstream: request, scheduler: DispatchQueue.main)   // 2 attempts, 2 s apart
    /// ```
    public struct Hedge<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to for each attempt.
        public let upstream: Upstream
        /// How many attempts may be made in all, the first included.
        public let maxAttempts: Int
        /// How long to wait for a value before the next attempt.
        public let delay: Duration
        /// Which failures start the next attempt at once; any other ends the stream.
        public let isNonFatal: (Upstream.Failure) -> Bool
        /// The budget each extra attempt draws from, if any.
        public let budget: RetryBudget?
        /// The breaker that must be closed for an extra attempt, if any.
        public let breaker: CircuitBreaker?
        /// Where the delays are timed.
        public let scheduler: Context
        /// Told each extra attempt.
        public let events: ResilienceEvents
        /// The safety of the call the hedge belongs to, when a `resilient` pipeline made it;
        /// otherwise each subscription has its own.
        @usableFromInline
        var safety: RepeatSafety?

        /// Makes a hedging publisher; `maxAttempts` must be at least 1 and `delay` not negative.
        ///
        /// ```swift
        /// let hedged = Publishers.Hedge(upstream: request, maxAttempts: 3, delay: .milliseconds(500), scheduler: DispatchQueue.main)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            maxAttempts: Int = 2,
            delay: Duration = .seconds(2),
            isNonFatal: @escaping (Upstream.Failure) -> Bool = { $0.resolveCategory() == .retryable },
            budget: RetryBudget? = nil,
            breaker: CircuitBreaker? = nil,
            scheduler: Context,
            events: ResilienceEvents = .none
        ) {
            precondition(maxAttempts >= 1, "hedge(maxAttempts:delay:scheduler:) requires at least 1 attempt, got \(maxAttempts)")
            precondition(delay >= .zero, "hedge(maxAttempts:delay:scheduler:) requires a delay of zero or more, got \(delay)")
            self.upstream = upstream
            self.maxAttempts = maxAttempts
            self.delay = delay
            self.isNonFatal = isNonFatal
            self.budget = budget
            self.breaker = breaker
            self.scheduler = scheduler
            self.events = events
        }

        /// Attaches `subscriber`: it gets the subscription first, then the first attempt is
        /// made.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = HedgeSubscription<Upstream, Context, S>(configuration: self, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start()
        }
    }
}
