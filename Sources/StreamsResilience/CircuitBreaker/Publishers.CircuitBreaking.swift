import Streams

extension Publisher {
    /// Guards each subscription with a shared ``CircuitBreaker``: while the circuit is open, a
    /// subscription fails at once with ``ResilienceError/circuitOpen(_:)`` and the upstream is
    /// not subscribed; otherwise the upstream is subscribed and the call's outcome is told to
    /// the breaker.
    ///
    /// Each subscription is one call. It succeeds at its first value, or when it finishes; it
    /// fails when it fails with an error for which `countsAsFailure` is true (by default, a
    /// retryable one), or when it is slower than the breaker's `slowCallThreshold`. A failure
    /// that does not count is a success for the breaker. A call cancelled before its outcome
    /// counts as nothing (a half-open probe gives its place back). Times are read from
    /// `scheduler`; values and demand pass through untouched.
    ///
    /// The refusal is retryable, with the time left as its hint: put `retry` outside the breaker
    /// and it waits for the circuit to let calls through again (or gives up when that is
    /// longer than its `retryAfterLimit`).
    ///
    /// ```swift
    /// let breaker = CircuitBreaker()
    /// let user = api.user(id)
    ///     .circuitBreaker(breaker, scheduler: DispatchQueue.main)
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func circuitBreaker<S: Scheduler>(
        _ breaker: CircuitBreaker,
        when countsAsFailure: @escaping (Failure) -> Bool = { $0.resolveCategory() == .retryable },
        scheduler: S
    ) -> Publishers.CircuitBreaking<Self, S, Failure> where S.SchedulerTimeType: TimelineInstant {
        Publishers.CircuitBreaking(
            upstream: self, breaker: breaker, countsAsFailure: countsAsFailure, scheduler: scheduler, lift: { .upstream($0) })
    }

    /// `circuitBreaker(_:when:scheduler:)` deciding on values as well as errors: the call's
    /// first value counts as a failed call when `countsAsFailure` returns true for it (a `200`
    /// whose body says "error"), as its failure does when it returns true for the error (Polly
    /// v8's `ShouldHandle`: a handled result is a failure for the breaker). The value is still
    /// delivered: the breaker only counts.
    ///
    /// ```swift
    /// let reply = rpc.call("getBalance")
    ///     .circuitBreaker(breaker, whenOutcome: { outcome in
    ///         switch outcome {
    ///         case .value(let reply): reply.error?.code == -32603
    ///         case .failure(let error): error.resolveCategory() == .retryable
    ///         }
    ///     }, scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func circuitBreaker<S: Scheduler>(
        _ breaker: CircuitBreaker,
        whenOutcome countsAsFailure: @escaping (AttemptOutcome<Output, Failure>) -> Bool,
        scheduler: S
    ) -> Publishers.CircuitBreaking<Self, S, Failure> where S.SchedulerTimeType: TimelineInstant {
        Publishers.CircuitBreaking(
            upstream: self, breaker: breaker, countsAsFailure: { countsAsFailure(.failure($0)) },
            countsValueAsFailure: { countsAsFailure(.value($0)) }, scheduler: scheduler, lift: { .upstream($0) })
    }

    /// `circuitBreaker(_:when:scheduler:)` over a publisher that another resilience operator
    /// already guards: its ``ResilienceError`` passes through as it is, so that stacked
    /// strategies keep one error type.
    ///
    /// ```swift
    /// let guarded = request
    ///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)
    ///     .circuitBreaker(breaker, scheduler: DispatchQueue.main)   // Failure stays ResilienceError<APIError>
    /// ```
    @inlinable
    public func circuitBreaker<S: Scheduler, Underlying: Error>(
        _ breaker: CircuitBreaker,
        when countsAsFailure: @escaping (Failure) -> Bool = { $0.resolveCategory() == .retryable },
        scheduler: S
    ) -> Publishers.CircuitBreaking<Self, S, Underlying>
    where S.SchedulerTimeType: TimelineInstant, Failure == ResilienceError<Underlying> {
        Publishers.CircuitBreaking(
            upstream: self, breaker: breaker, countsAsFailure: countsAsFailure, scheduler: scheduler, lift: { $0 })
    }
}

extension Publishers {
    /// A publisher whose subscriptions a ``CircuitBreaker`` admits or refuses, as
    /// `circuitBreaker(_:when:scheduler:)` describes.
    ///
    /// ```swift
    /// let guarded = request.circuitBreaker(breaker, scheduler: DispatchQueue.main)   // a CircuitBreaking
    /// ```
    public struct CircuitBreaking<Upstream: Publisher, Context: Scheduler, Underlying: Error>: Publisher
    where Context.SchedulerTimeType: TimelineInstant {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the breaker's refusal.
        public typealias Failure = ResilienceError<Underlying>

        /// The publisher guarded.
        public let upstream: Upstream
        /// The breaker that admits or refuses each subscription.
        public let breaker: CircuitBreaker
        /// Which of the upstream's failures count as failed calls.
        public let countsAsFailure: (Upstream.Failure) -> Bool
        /// Where the time of each call is read.
        public let scheduler: Context

        /// Which of the upstream's first values count as failed calls; nil for none.
        @usableFromInline
        let countsValueAsFailure: ((Upstream.Output) -> Bool)?
        @usableFromInline
        let lift: (Upstream.Failure) -> ResilienceError<Underlying>
        /// The events of the pipeline call this stage is part of, if any.
        @usableFromInline
        let during: ResilienceEvents?

        @inlinable
        init(
            upstream: Upstream, breaker: CircuitBreaker, countsAsFailure: @escaping (Upstream.Failure) -> Bool,
            countsValueAsFailure: ((Upstream.Output) -> Bool)? = nil, scheduler: Context,
            lift: @escaping (Upstream.Failure) -> ResilienceError<Underlying>, during: ResilienceEvents? = nil
        ) {
            self.upstream = upstream
            self.breaker = breaker
            self.countsAsFailure = countsAsFailure
            self.countsValueAsFailure = countsValueAsFailure
            self.scheduler = scheduler
            self.lift = lift
            self.during = during
        }

        /// Attaches `subscriber`: subscribes to the upstream if the breaker admits the call, or
        /// fails `subscriber` at once with the refusal.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            switch breaker.acquire(at: scheduler.now.timelineOffset, during: during) {
            case .permit(let ticket), .permitAndNotify(let ticket):
                let call = CircuitCall(breaker: breaker, ticket: ticket, countsAsFailure: countsAsFailure, during: during)
                upstream.receive(
                    subscriber: CircuitBreakerSubscription<Upstream, Context, S>(
                        downstream: subscriber, call: call, countsValueAsFailure: countsValueAsFailure,
                        scheduler: scheduler, lift: lift))
            case .reject(let refusal), .rejectAndNotify(let refusal):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(.circuitOpen(refusal)))
            }
        }
    }
}
