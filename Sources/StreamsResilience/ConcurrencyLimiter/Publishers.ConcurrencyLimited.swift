import Streams

extension Publisher {
    /// Runs each subscription under a permit of a shared ``ConcurrencyLimiter``: when all its
    /// permits are taken the subscription waits in its queue (the downstream has its
    /// subscription and may cancel meanwhile), and when the queue is full too it fails at once
    /// with ``ResilienceError/limiterRejected(_:)``.
    ///
    /// The upstream is subscribed once the permit is the subscription's; the demand the
    /// downstream asked for meanwhile is then asked of it. The permit is given back when the
    /// upstream completes or the subscription is cancelled.
    ///
    /// ```swift
    /// let limiter = ConcurrencyLimiter(maxConcurrent: 4, maxQueued: 100)
    /// let thumbnails = ids.publisher.flatMap { api.thumbnail($0).concurrencyLimiter(limiter) }
    /// ```
    @inlinable
    public func concurrencyLimiter(_ limiter: ConcurrencyLimiter) -> Publishers.ConcurrencyLimited<Self, Failure> {
        Publishers.ConcurrencyLimited(upstream: self, limiter: limiter, lift: { .upstream($0) })
    }

    /// `concurrencyLimiter(_:)` over a publisher that another resilience operator already
    /// guards: its ``ResilienceError`` passes through as it is.
    ///
    /// ```swift
    /// let guarded = request.attemptTimeout(.seconds(10), scheduler: DispatchQueue.main).concurrencyLimiter(limiter)
    /// ```
    @inlinable
    public func concurrencyLimiter<Underlying: Error>(_ limiter: ConcurrencyLimiter)
        -> Publishers.ConcurrencyLimited<Self, Underlying>
    where Failure == ResilienceError<Underlying> {
        Publishers.ConcurrencyLimited(upstream: self, limiter: limiter, lift: { $0 })
    }
}

extension Publishers {
    /// A publisher whose subscriptions run under a ``ConcurrencyLimiter``'s permits, as
    /// `concurrencyLimiter(_:)` describes.
    ///
    /// ```swift
    /// let limited = request.concurrencyLimiter(limiter)   // a ConcurrencyLimited
    /// ```
    public struct ConcurrencyLimited<Upstream: Publisher, Underlying: Error>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, or the limiter's refusal.
        public typealias Failure = ResilienceError<Underlying>

        /// The publisher limited.
        public let upstream: Upstream
        /// The limiter whose permits the subscriptions take.
        public let limiter: ConcurrencyLimiter

        @usableFromInline
        let lift: (Upstream.Failure) -> ResilienceError<Underlying>
        /// The events of the pipeline call this stage is part of, if any.
        @usableFromInline
        let during: ResilienceEvents?

        @inlinable
        init(
            upstream: Upstream, limiter: ConcurrencyLimiter, lift: @escaping (Upstream.Failure) -> ResilienceError<Underlying>,
            during: ResilienceEvents? = nil
        ) {
            self.upstream = upstream
            self.limiter = limiter
            self.lift = lift
            self.during = during
        }

        /// Attaches `subscriber`: at once with a free permit, after a wait in the queue, or not
        /// at all (it fails) when the queue is full.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = GatedSubscription<Upstream, ConcurrencyLimiter, S>(
                downstream: subscriber, upstream: upstream, gate: limiter, lift: lift, name: "ConcurrencyLimiter")
            switch limiter.acquire(subscription, during: during) {
            case .permit:
                subscription.gateOpened()
                subscription.start(handingTo: subscriber)
            case .enqueued:
                subscription.start(handingTo: subscriber)
            case .reject(let refusal):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(.limiterRejected(refusal)))
            }
        }
    }
}
