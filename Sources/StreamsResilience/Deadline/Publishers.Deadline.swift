import Streams

extension Publisher {
    /// Fails the stream with ``ResilienceError/deadlineExceeded(_:)`` if it has not completed
    /// within `deadline` of its subscription, cancelling whatever it is doing: an attempt, or a
    /// retry's wait. Put it outside `retry`, to bound all the attempts together.
    ///
    /// The error is not retryable. A retry inside it with `maxElapsed` set no later than the
    /// deadline gives up as soon as its next attempt would start too late, with the last error
    /// of the upstream rather than this one: it never waits only to be cut off. `events` is told
    /// each passed deadline. The default, 30 seconds, is Polly v8's timeout and the total
    /// timeout of Microsoft's standard HTTP handler.
    ///
    /// ```swift
    /// let user = api.user(id)
    ///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)
    ///     .retry(5, backoff: .exponential(), scheduler: DispatchQueue.main)
    ///     .deadline(.seconds(30), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func deadline<S: Scheduler>(
        _ deadline: Duration = .seconds(30), scheduler: S, events: ResilienceEvents = .none
    ) -> Publishers.Deadline<Self, S, Failure> {
        Publishers.Deadline(upstream: self, deadline: deadline, scheduler: scheduler, events: events, lift: { .upstream($0) })
    }

    /// `deadline(_:scheduler:)` over a publisher that another resilience operator already
    /// guards: its ``ResilienceError`` passes through as it is.
    ///
    /// ```swift
    /// let bounded = request
    ///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main)
    ///     .retry(5, backoff: .exponential(), scheduler: DispatchQueue.main)
    ///     .deadline(.seconds(30), scheduler: DispatchQueue.main)   // Failure stays ResilienceError<APIError>
    /// ```
    @inlinable
    public func deadline<S: Scheduler, Underlying: Error>(
        _ deadline: Duration = .seconds(30), scheduler: S, events: ResilienceEvents = .none
    )
        -> Publishers.Deadline<Self, S, Underlying>
    where Failure == ResilienceError<Underlying> {
        Publishers.Deadline(upstream: self, deadline: deadline, scheduler: scheduler, events: events, lift: { $0 })
    }
}

extension Publishers {
    /// A publisher that fails when its upstream has not completed by a deadline, as
    /// `deadline(_:scheduler:)` describes.
    ///
    /// ```swift
    /// let bounded = retried.deadline(.seconds(30), scheduler: DispatchQueue.main)   // a Deadline
    /// ```
    public struct Deadline<Upstream: Publisher, Context: Scheduler, Underlying: Error>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the passed deadline.
        public typealias Failure = ResilienceError<Underlying>

        /// The publisher bounded.
        public let upstream: Upstream
        /// How long the stream may take, from subscription to completion.
        public let deadline: Duration
        /// Where the time is measured.
        public let scheduler: Context
        /// Told each passed deadline.
        public let events: ResilienceEvents

        @usableFromInline
        let lift: (Upstream.Failure) -> ResilienceError<Underlying>

        @inlinable
        init(
            upstream: Upstream, deadline: Duration, scheduler: Context, events: ResilienceEvents,
            lift: @escaping (Upstream.Failure) -> ResilienceError<Underlying>
        ) {
            TimeLimitKind.deadline.check(deadline)
            self.upstream = upstream
            self.deadline = deadline
            self.scheduler = scheduler
            self.events = events
            self.lift = lift
        }

        /// Attaches `subscriber`; the time runs once it has the subscription.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: TimeLimitSubscription<Upstream, Context, S>(
                    downstream: subscriber, scheduler: scheduler, limit: deadline, kind: .deadline, lift: lift, events: events))
        }
    }
}
