import Streams

extension Publisher {
    /// Guards each subscription with every stage of `pipeline`'s policy, in the standard order
    /// (limiters, total timeout, retry, hedging, pushback, circuit breaker, attempt timeout,
    /// outermost first), drawing from the pipeline's shared breaker, budget and limiters.
    ///
    /// The stream fails with ``ResilienceError``: `.upstream(error)` for the upstream's own
    /// failure (the last one, unchanged, when the retry gives up), or the error of the stage that
    /// stopped it. The downstream sees one subscription; cancelling it at any time cancels
    /// whatever is in progress (a wait for a permit, an attempt, a retry's wait) and gives back
    /// every permit.
    ///
    /// With `isSafeToRepeat` false (a POST without an `Idempotency-Key`: pass
    /// `SentRequest(request).isSafeToRepeat` from StreamsNetworking), the call is never hedged,
    /// and never sent again after a timeout of any kind (the attempt timeout, a transport's
    /// `URLError(.timedOut)`, any error classified as a timeout), which may have cut it off after
    /// the server acted on it; the attempt timeout's ``AttemptTimeoutError`` says so and is not
    /// retryable. A refusal (an open circuit, a limiter) is still retried, since nothing was
    /// sent, and the upstream's own errors are retried as their categories say. This is the rule
    /// of `ResiliencePipeline.execute(isSafeToRepeat:_:)`, decided by the same code.
    ///
    /// ```swift
    /// let registry = ResilienceRegistry(policy: .standardHTTP)
    /// let user = Deferred { api.user(id) }
    ///     .resilient(registry.pipeline(for: "api.example.com"), scheduler: DispatchQueue.main)
    /// let charge = session.requestPublisher(for: post).validateStatus()
    ///     .resilient(payments, scheduler: DispatchQueue.main, isSafeToRepeat: SentRequest(post).isSafeToRepeat)
    /// ```
    @inlinable
    public func resilient<S: Scheduler>(
        _ pipeline: ResiliencePipeline, scheduler: S, isSafeToRepeat: Bool = true
    ) -> Publishers.Resilient<Self, S> where S.SchedulerTimeType: TimelineInstant {
        Publishers.Resilient(upstream: self, pipeline: pipeline, scheduler: scheduler, isSafeToRepeat: isSafeToRepeat)
    }

    /// `resilient(_:scheduler:)` with a pipeline of its own, made now from `policy`: every
    /// subscription to the returned publisher shares its breaker, budget and limiters, and no
    /// other publisher does. To share them between publishers (one per host, say), make a
    /// ``ResiliencePipeline`` or use a ``ResilienceRegistry``. `isSafeToRepeat` is
    /// `resilient(_:scheduler:isSafeToRepeat:)`'s.
    ///
    /// ```swift
    /// let prices = Deferred { api.prices() }.resilient(.standardHTTP, scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func resilient<S: Scheduler>(
        _ policy: ResiliencePolicy, events: ResilienceEvents = .none, scheduler: S, isSafeToRepeat: Bool = true
    ) -> Publishers.Resilient<Self, S> where S.SchedulerTimeType: TimelineInstant {
        Publishers.Resilient(
            upstream: self, pipeline: ResiliencePipeline(policy, events: events), scheduler: scheduler,
            isSafeToRepeat: isSafeToRepeat)
    }
}

extension Publishers {
    /// A publisher guarded by every stage of a ``ResiliencePipeline``, as
    /// `resilient(_:scheduler:)` describes.
    ///
    /// ```swift
    /// let guarded = request.resilient(pipeline, scheduler: DispatchQueue.main)   // a Resilient
    /// ```
    public struct Resilient<Upstream: Publisher, Context: Scheduler>: Publisher
    where Context.SchedulerTimeType: TimelineInstant {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the error of the stage that stopped the call.
        public typealias Failure = ResilienceError<Upstream.Failure>

        /// The publisher guarded; each attempt subscribes to it again.
        public let upstream: Upstream
        /// The stages and the shared objects they use.
        public let pipeline: ResiliencePipeline
        /// Where time is read, and waits and retries are scheduled.
        public let scheduler: Context
        /// Whether the call may be sent again after a timeout, and hedged; see
        /// `resilient(_:scheduler:isSafeToRepeat:)`.
        public let isSafeToRepeat: Bool

        /// Guards `upstream` with `pipeline`; see `resilient(_:scheduler:isSafeToRepeat:)`.
        ///
        /// ```swift
        /// let guarded = Publishers.Resilient(upstream: request, pipeline: pipeline, scheduler: DispatchQueue.main)
        /// ```
        public init(upstream: Upstream, pipeline: ResiliencePipeline, scheduler: Context, isSafeToRepeat: Bool = true) {
            self.upstream = upstream
            self.pipeline = pipeline
            self.scheduler = scheduler
            self.isSafeToRepeat = isSafeToRepeat
        }

        /// Attaches `subscriber` to the stages, built from the innermost (the attempt timeout)
        /// out to the limiters.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            stages().receive(subscriber: subscriber)
        }

        /// The whole stack of stages over the upstream, for one subscription.
        func stages() -> AnyPublisher<Output, Failure> {
            let policy = pipeline.policy
            let events = pipeline.events
            let isSafeToRepeat = isSafeToRepeat
            var stack: AnyPublisher<Output, Failure>
            if let limiter = pipeline.pushbackLimiter {
                stack = upstream.observed(by: limiter, scheduler: scheduler).mapError { Failure.upstream($0) }
                    .eraseToAnyPublisher()
            } else {
                stack = upstream.mapError { Failure.upstream($0) }.eraseToAnyPublisher()
            }
            if let timeout = policy.attemptTimeout {
                stack = stack.attemptTimeout(timeout, scheduler: scheduler, events: events, isSafeToRepeat: isSafeToRepeat)
                    .eraseToAnyPublisher()
            }
            if let breaker = pipeline.circuitBreaker {
                var countsValue: ((Output) -> Bool)?
                if policy.circuitBreakerWhen != nil {
                    countsValue = { (value: Output) -> Bool in policy.breakerCounts(value: value) }
                }
                stack = Publishers.CircuitBreaking(
                    upstream: stack, breaker: breaker, countsAsFailure: { policy.breakerCounts($0) },
                    countsValueAsFailure: countsValue, scheduler: scheduler, lift: { $0 }
                ).eraseToAnyPublisher()
            }
            if let limiter = pipeline.pushbackLimiter {
                stack = PushbackLimited(upstream: stack, limiter: limiter, scheduler: scheduler).eraseToAnyPublisher()
            }
            // A call that is not safe to repeat is never hedged: a hedge is a second copy.
            if let hedging = policy.hedging, isSafeToRepeat {
                stack = hedging.apply(to: stack, pipeline: pipeline, scheduler: scheduler)
            }
            if let retry = policy.retry {
                stack = retried(stack, retry)
            }
            if let total = policy.totalTimeout {
                stack = stack.deadline(total, scheduler: scheduler, events: events).eraseToAnyPublisher()
            }
            if let limiter = pipeline.concurrencyLimiter {
                stack = stack.concurrencyLimiter(limiter).eraseToAnyPublisher()
            }
            if let limiter = pipeline.rateLimiter {
                stack = stack.rateLimiter(limiter, scheduler: scheduler).eraseToAnyPublisher()
            }
            return stack
        }

        /// `stack` with the policy's `retry`: the selective retry, or its outcome form when the
        /// policy's `retryWhen` judges values too. Both decide with the policy's rule.
        func retried(_ stack: AnyPublisher<Output, Failure>, _ retry: ResiliencePolicy.Retry) -> AnyPublisher<
            Output, Failure
        > {
            let policy = pipeline.policy
            let isSafeToRepeat = isSafeToRepeat
            let hook = policy.onRetryGiveUp
            let random = AnyRandom(pipeline.makeRandom())
            let observer = pipeline.events.retryObserver
            guard policy.retryWhen != nil else {
                return Publishers.SelectiveRetry(
                    upstream: stack, maxRetries: retry.maxRetries,
                    shouldRetry: { policy.retries(failure: $0, isSafeToRepeat: isSafeToRepeat) }, backoff: retry.backoff,
                    retryAfterLimit: retry.retryAfterLimit, maxElapsed: policy.totalTimeout, budget: pipeline.retryBudget,
                    transient: retry.transient, scheduler: scheduler, random: random, observer: observer, onRetry: nil,
                    onGiveUp: hook.map { hook in
                        { report in hook(RetryReport(reason: report.reason, attempts: report.attempts, error: report.error)) }
                    }
                ).eraseToAnyPublisher()
            }
            return Publishers.OutcomeRetry(
                upstream: stack, maxRetries: retry.maxRetries,
                shouldRetry: { outcome in
                    switch outcome {
                    case .value(let value): policy.retries(value: value)
                    case .failure(let error): policy.retries(failure: error, isSafeToRepeat: isSafeToRepeat)
                    }
                },
                backoff: retry.backoff, retryAfterLimit: retry.retryAfterLimit, maxElapsed: policy.totalTimeout,
                budget: pipeline.retryBudget, transient: retry.transient, scheduler: scheduler, random: random,
                observer: observer, onRetry: nil,
                onGiveUp: hook.map { hook in
                    { report in
                        // A failure is reported as the stream's error; a handled value as its outcome.
                        var error: any Error = report.error
                        if let failure = report.error.error { error = failure }
                        hook(RetryReport(reason: report.reason, attempts: report.attempts, error: error))
                    }
                }
            ).eraseToAnyPublisher()
        }
    }
}
