import Streams

extension Publisher {
    /// Fails one attempt that has not completed within `timeout` with
    /// ``ResilienceError/attemptTimedOut(_:)``, cancelling it: a timeout per attempt, to put
    /// inside a retry.
    ///
    /// The time runs from the subscription to the completion (not to the first value): this is
    /// for requests. For a long-lived stream that must not go quiet, use
    /// `timeout(_:scheduler:options:customError:)`, whose wait starts again at every value.
    /// The error is retryable, so `retry` outside it makes another attempt; put `deadline`
    /// outside the retry to bound all the attempts together. `events` is told each attempt that
    /// times out. The default timeout, 30 seconds, is Polly v8's.
    ///
    /// An attempt cut off may have reached the server and taken effect. For a call that is not
    /// safe to repeat (a POST without an `Idempotency-Key`), the ``AttemptTimeoutError`` says so
    /// and is not retryable, so no retry sends the call again after a timeout. StreamsNetworking's
    /// request publishers tell the timeout themselves when it subscribes to them (through
    /// `map`, `validateStatus`, `decode` and the other operators that subscribe at once); for any
    /// other call that is not safe to repeat, or one subscribed later (`subscribe(on:)`, the
    /// inner publisher of a `flatMap`), pass `isSafeToRepeat: false`.
    ///
    /// ```swift
    /// let user = api.user(id)
    ///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
    ///     .deadline(.seconds(30), scheduler: DispatchQueue.main)
    /// let charge = grpcClient.charge(order)   // not safe to repeat: sent at most once
    ///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main, isSafeToRepeat: false)
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func attemptTimeout<S: Scheduler>(
        _ timeout: Duration = .seconds(30), scheduler: S, events: ResilienceEvents = .none, isSafeToRepeat: Bool = true
    ) -> Publishers.AttemptTimeout<Self, S, Failure> {
        Publishers.AttemptTimeout(
            upstream: self, timeout: timeout, scheduler: scheduler, events: events, isSafeToRepeat: isSafeToRepeat,
            lift: { .upstream($0) })
    }

    /// `attemptTimeout(_:scheduler:)` over a publisher that another resilience operator already
    /// guards: its ``ResilienceError`` passes through as it is.
    ///
    /// ```swift
    /// let guarded = request.circuitBreaker(breaker, scheduler: DispatchQueue.main).attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func attemptTimeout<S: Scheduler, Underlying: Error>(
        _ timeout: Duration = .seconds(30), scheduler: S, events: ResilienceEvents = .none, isSafeToRepeat: Bool = true
    )
        -> Publishers.AttemptTimeout<Self, S, Underlying>
    where Failure == ResilienceError<Underlying> {
        Publishers.AttemptTimeout(
            upstream: self, timeout: timeout, scheduler: scheduler, events: events, isSafeToRepeat: isSafeToRepeat,
            lift: { $0 })
    }

    /// The attempt timeout of a `resilient` pipeline, reading the safety of the pipeline's call.
    func attemptTimeout<S: Scheduler, Underlying: Error>(
        _ timeout: Duration, scheduler: S, events: ResilienceEvents, safety: RepeatSafety
    ) -> Publishers.AttemptTimeout<Self, S, Underlying> where Failure == ResilienceError<Underlying> {
        Publishers.AttemptTimeout(
            upstream: self, timeout: timeout, scheduler: scheduler, events: events, isSafeToRepeat: safety.told,
            safety: safety, lift: { $0 })
    }
}

extension Publishers {
    /// A publisher that fails an attempt running longer than its timeout, as
    /// `attemptTimeout(_:scheduler:)` describes.
    ///
    /// ```swift
    /// let bounded = request.attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)   // an AttemptTimeout
    /// ```
    public struct AttemptTimeout<Upstream: Publisher, Context: Scheduler, Underlying: Error>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the timeout.
        public typealias Failure = ResilienceError<Underlying>

        /// The publisher timed.
        public let upstream: Upstream
        /// How long one attempt may take, from subscription to completion.
        public let timeout: Duration
        /// Where the time is measured.
        public let scheduler: Context
        /// Told each timed-out attempt.
        public let events: ResilienceEvents
        /// Whether the call may be sent again after a timeout, unless the request says otherwise
        /// when it is subscribed (StreamsNetworking's requests do); the error says it.
        public let isSafeToRepeat: Bool
        /// The safety of the call this attempt belongs to, when a `resilient` pipeline made the
        /// timeout; otherwise each subscription has its own.
        @usableFromInline
        let safety: RepeatSafety?

        @usableFromInline
        let lift: (Upstream.Failure) -> ResilienceError<Underlying>

        @inlinable
        init(
            upstream: Upstream, timeout: Duration, scheduler: Context, events: ResilienceEvents, isSafeToRepeat: Bool,
            safety: RepeatSafety? = nil, lift: @escaping (Upstream.Failure) -> ResilienceError<Underlying>
        ) {
            TimeLimitKind.attemptTimeout.check(timeout)
            self.upstream = upstream
            self.timeout = timeout
            self.scheduler = scheduler
            self.events = events
            self.isSafeToRepeat = isSafeToRepeat
            self.safety = safety
            self.lift = lift
        }

        /// Attaches `subscriber`; the time runs once it has the subscription. The upstream is
        /// subscribed with the call's `RepeatSafety` bound, so that its request can say it is
        /// not safe to repeat.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let safety = safety ?? RepeatSafety(isSafeToRepeat)
            let timed = TimeLimitSubscription<Upstream, Context, S>(
                downstream: subscriber, scheduler: scheduler, limit: timeout, kind: .attemptTimeout, lift: lift,
                events: events, safety: safety)
            safety.bound { upstream.receive(subscriber: timed) }
        }
    }
}
