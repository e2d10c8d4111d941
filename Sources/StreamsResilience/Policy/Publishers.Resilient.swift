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
    /// A call that is not safe to repeat (a POST without an `Idempotency-Key`) is never hedged,
    /// and never sent again after a timeout of any kind (the attempt timeout, a transport's
    /// `URLError(.timedOut)`, any error classified as a timeout), which may have cut it off after
    /// the server acted on it; the attempt timeout's ``AttemptTimeoutError`` says so and is not
    /// retryable. A refusal (an open circuit, a limiter) is still retried, since nothing was
    /// sent, and the upstream's own errors are retried as their categories say. This is the rule
    /// of `ResiliencePipeline.execute(isSafeToRepeat:_:)`, decided by the same code.
    ///
    /// StreamsNetworking's request publishers say so themselves when an attempt subscribes to
    /// them, through the operators that subscribe at once (`map`, `validateStatus`, `decode`,
    /// `Deferred`, ...): a POST guarded by `.standardHTTP` is sent once without being told. Pass
    /// `isSafeToRepeat: false` for any other call that is not safe to repeat, or one whose
    /// request is subscribed later (`subscribe(on:)`, the inner publisher of a `flatMap`).
    ///
    /// `request` names the call's request (its method and origin) in the events of each
    /// subscription (see ``ResilienceEventContext``); StreamsNetworking's
    /// `resilient(_:for:scheduler:)` passes it, and `isSafeToRepeat`, from the `URLRequest`.
    ///
    /// ```swift
    /// let registry = ResilienceRegistry(policy: .standardHTTP)
    /// let user = Deferred { api.user(id) }
    ///     .resilient(registry.pipeline(for: "api.example.com"), scheduler: DispatchQueue.main)
    /// let charge = session.requestPublisher(for: post).validateStatus()   // sent once: a POST
    ///     .resilient(payments, scheduler: DispatchQueue.main)
    /// let order = grpc.placeOrder(order)                                   // not HTTP: say it
    ///     .resilient(payments, scheduler: DispatchQueue.main, isSafeToRepeat: false)
    /// ```
    ///
    /// `onReport`, when given, is handed each subscription's ``ResilienceReport`` (its attempts,
    /// waits, the stage that stopped it) when the subscription finishes or fails, before the
    /// completion goes downstream; nothing is recorded without it.
    @inlinable
    public func resilient<S: Scheduler>(
        _ pipeline: ResiliencePipeline, scheduler: S, isSafeToRepeat: Bool = true, request: ResilienceRequestIdentity? = nil,
        onReport: (@Sendable (ResilienceReport) -> Void)? = nil
    ) -> Publishers.Resilient<Self, S> where S.SchedulerTimeType: TimelineInstant {
        Publishers.Resilient(
            upstream: self, pipeline: pipeline, scheduler: scheduler, isSafeToRepeat: isSafeToRepeat, request: request,
            onReport: onReport)
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
        /// The request each subscription is for, named in its events; nil when unknown.
        public let request: ResilienceRequestIdentity?
        /// Handed each subscription's report when it completes; nil: no report is recorded.
        public let onReport: (@Sendable (ResilienceReport) -> Void)?
        /// The outermost stage: a value in place of the call's failure, or nil to let it through.
        public let fallback: ((Failure) -> Output?)?

        /// Guards `upstream` with `pipeline`; see `resilient(_:scheduler:isSafeToRepeat:request:)`.
        ///
        /// ```swift
        /// let guarded = Publishers.Resilient(upstream: request, pipeline: pipeline, scheduler: DispatchQueue.main)
        /// ```
        public init(
            upstream: Upstream, pipeline: ResiliencePipeline, scheduler: Context, isSafeToRepeat: Bool = true,
            request: ResilienceRequestIdentity? = nil, onReport: (@Sendable (ResilienceReport) -> Void)? = nil,
            fallback: ((Failure) -> Output?)? = nil
        ) {
            self.upstream = upstream
            self.pipeline = pipeline
            self.scheduler = scheduler
            self.isSafeToRepeat = isSafeToRepeat
            self.request = request
            self.onReport = onReport
            self.fallback = fallback
        }

        /// Attaches `subscriber` to the stages, built from the innermost (the attempt timeout)
        /// out to the limiters.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            stages().receive(subscriber: subscriber)
        }

        /// The whole stack of stages over the upstream, for one subscription.
        func stages() -> AnyPublisher<Output, Failure> {
            let policy = pipeline.policy
            let recorder = onReport == nil ? nil : ResilienceReportRecorder()
            let events = pipeline.events.forCall(request: request, recorder: recorder)
            // What the call was told, and what its requests say of themselves when subscribed.
            let safety = RepeatSafety(isSafeToRepeat)
            let scoped = RepeatSafetyScope(upstream: upstream, safety: safety)
            var stack: AnyPublisher<Output, Failure>
            if let limiter = pipeline.pushbackLimiter {
                stack = scoped.observed(by: limiter, scheduler: scheduler).mapError { Failure.upstream($0) }
                    .eraseToAnyPublisher()
            } else {
                stack = scoped.mapError { Failure.upstream($0) }.eraseToAnyPublisher()
            }
            if let timeout = policy.attemptTimeout {
                stack = stack.attemptTimeout(timeout, scheduler: scheduler, events: events, safety: safety)
                    .eraseToAnyPublisher()
            }
            if let breaker = pipeline.circuitBreaker {
                var countsValue: ((Output) -> Bool)?
                if policy.circuitBreakerWhen != nil {
                    countsValue = { (value: Output) -> Bool in policy.breakerCounts(value: value) }
                }
                stack = Publishers.CircuitBreaking(
                    upstream: stack, breaker: breaker, countsAsFailure: { policy.breakerCounts($0) },
                    countsValueAsFailure: countsValue, scheduler: scheduler, lift: { $0 }, during: events
                ).eraseToAnyPublisher()
            }
            if let limiter = pipeline.pushbackLimiter {
                stack = PushbackLimited(upstream: stack, limiter: limiter, scheduler: scheduler, during: events)
                    .eraseToAnyPublisher()
            }
            // A call that is not safe to repeat is never hedged: a hedge is a second copy. The
            // `Hedging` stage asks before each copy; another stage only if the call was told so.
            if let hedging = policy.hedging as? Hedging {
                stack = hedging.hedge(stack, pipeline: pipeline, scheduler: scheduler, safety: safety).eraseToAnyPublisher()
            } else if let stage = policy.hedging, isSafeToRepeat {
                stack = stage.apply(to: stack, pipeline: pipeline, scheduler: scheduler)
            }
            if let retry = policy.retry {
                stack = retried(stack, retry, events: events, safety: safety)
            }
            if let total = policy.totalTimeout {
                stack = stack.deadline(total, scheduler: scheduler, events: events).eraseToAnyPublisher()
            }
            if let limiter = pipeline.concurrencyLimiter {
                stack = Publishers.ConcurrencyLimited(upstream: stack, limiter: limiter, lift: { $0 }, during: events)
                    .eraseToAnyPublisher()
            }
            if let limiter = pipeline.rateLimiter {
                stack = Publishers.RateLimited(
                    upstream: stack, limiter: limiter, scheduler: scheduler, lift: { $0 }, during: events
                ).eraseToAnyPublisher()
            }
            if let fallback {
                // Outermost, as Polly's recommended order puts it: it sees what every other
                // stage let through, refusals included.
                stack = stack.catch { error -> AnyPublisher<Output, Failure> in
                    events.emit(.fallbackUsed(error: error))
                    guard let value = fallback(error) else { return Fail(error: error).eraseToAnyPublisher() }
                    return Just(value).setFailureType(to: Failure.self).eraseToAnyPublisher()
                }.eraseToAnyPublisher()
            }
            if let recorder, let onReport {
                let budget = pipeline.retryBudget
                stack = stack.handleEvents(receiveCompletion: { completion in
                    var report = recorder.report(budget: budget)
                    if case .failure(let error) = completion { report.noteStop(by: ResilienceReport.Stage(stoppedBy: error)) }
                    onReport(report)
                }).eraseToAnyPublisher()
            }
            return stack
        }

        /// `stack` with the policy's `retry`: the selective retry, or its outcome form when the
        /// policy's `retryWhen` judges values too. Both decide with the policy's rule, tell
        /// `events` (the call's) and read `safety` when they judge a failure.
        func retried(
            _ stack: AnyPublisher<Output, Failure>, _ retry: ResiliencePolicy.Retry, events: ResilienceEvents,
            safety: RepeatSafety
        ) -> AnyPublisher<Output, Failure> {
            let policy = pipeline.policy
            let hook = policy.onRetryGiveUp
            let random = AnyRandom(pipeline.makeRandom())
            let observer = events.retryObserver
            guard policy.retryWhen != nil else {
                return Publishers.SelectiveRetry(
                    upstream: stack, maxRetries: retry.maxRetries,
                    shouldRetry: { policy.retries(failure: $0, isSafeToRepeat: safety.isSafe) }, backoff: retry.backoff,
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
                    case .failure(let error): policy.retries(failure: error, isSafeToRepeat: safety.isSafe)
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
