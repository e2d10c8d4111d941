import Streams

extension Publisher {
    /// Admits each subscription through a shared ``RateLimiter``: at once when it has a token,
    /// after a wait on `scheduler` when the next token comes within its `maxWait` (the downstream
    /// has its subscription and may cancel meanwhile, which gives the token back), and otherwise
    /// not at all: the subscription fails at once with ``ResilienceError/limiterRejected(_:)``,
    /// whose hint is the time until a token is free.
    ///
    /// The demand the downstream asks for while the subscription waits is asked of the upstream
    /// once it is subscribed. A batch call takes `permits` at once (at most the limiter's
    /// ``RateLimiter/maxPermitsPerCall``; more stops the program): it waits until they are all
    /// free, and a cancel gives them all back.
    ///
    /// ```swift
    /// let limiter = RateLimiter(permits: 5, per: .seconds(1), maxWait: .seconds(2))
    /// let results = api.search(text).rateLimiter(limiter, scheduler: DispatchQueue.main)
    /// let batch = api.upload(items).rateLimiter(limiter, permits: items.count, scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func rateLimiter<S: Scheduler>(_ limiter: RateLimiter, permits: Int = 1, scheduler: S)
        -> Publishers.RateLimited<Self, S, Failure>
    where S.SchedulerTimeType: TimelineInstant {
        Publishers.RateLimited(upstream: self, limiter: limiter, permits: permits, scheduler: scheduler, lift: { .upstream($0) })
    }

    /// `rateLimiter(_:scheduler:)` over a publisher that another resilience operator already
    /// guards: its ``ResilienceError`` passes through as it is.
    ///
    /// ```swift
    /// let guarded = request.attemptTimeout(.seconds(10), scheduler: DispatchQueue.main).rateLimiter(limiter, scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func rateLimiter<S: Scheduler, Underlying: Error>(_ limiter: RateLimiter, permits: Int = 1, scheduler: S)
        -> Publishers.RateLimited<Self, S, Underlying>
    where S.SchedulerTimeType: TimelineInstant, Failure == ResilienceError<Underlying> {
        Publishers.RateLimited(upstream: self, limiter: limiter, permits: permits, scheduler: scheduler, lift: { $0 })
    }
}

extension Publishers {
    /// A publisher whose subscriptions a ``RateLimiter`` admits, delays or refuses, as
    /// `rateLimiter(_:scheduler:)` describes.
    ///
    /// ```swift
    /// let limited = request.rateLimiter(limiter, scheduler: DispatchQueue.main)   // a RateLimited
    /// ```
    public struct RateLimited<Upstream: Publisher, Context: Scheduler, Underlying: Error>: Publisher
    where Context.SchedulerTimeType: TimelineInstant {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the limiter's refusal.
        public typealias Failure = ResilienceError<Underlying>

        /// The publisher limited.
        public let upstream: Upstream
        /// The limiter whose tokens the subscriptions take.
        public let limiter: RateLimiter
        /// The permits each subscription takes.
        public let permits: Int
        /// Where the time is read and the waits are timed.
        public let scheduler: Context

        @usableFromInline
        let lift: (Upstream.Failure) -> ResilienceError<Underlying>
        /// The events of the pipeline call this stage is part of, if any.
        @usableFromInline
        let during: ResilienceEvents?

        @inlinable
        init(
            upstream: Upstream, limiter: RateLimiter, permits: Int = 1, scheduler: Context,
            lift: @escaping (Upstream.Failure) -> ResilienceError<Underlying>, during: ResilienceEvents? = nil
        ) {
            self.upstream = upstream
            self.limiter = limiter
            self.permits = permits
            self.scheduler = scheduler
            self.lift = lift
            self.during = during
        }

        /// Attaches `subscriber`: at once with a token, after a wait for one, or not at all (it
        /// fails).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let now = scheduler.now.timelineOffset
            let admission = limiter.acquire(permits, at: now, during: during)
            var reservedAt = now
            if case .delay(let wait) = admission { reservedAt += wait }
            GatedSubscription<Upstream, RateLimiterReservation, S>.admit(
                admission, downstream: subscriber, upstream: upstream,
                gate: RateLimiterReservation(limiter: limiter, permits: permits, reservedAt: reservedAt), lift: lift,
                name: "RateLimiter", scheduler: scheduler)
        }
    }
}
