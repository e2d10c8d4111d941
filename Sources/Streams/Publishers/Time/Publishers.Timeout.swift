extension Publisher {
    /// Ends the stream if the upstream stays silent for `interval`: with the error
    /// `customError` makes, or, without one, by finishing normally.
    ///
    /// The wait starts at subscription and starts again at the first request and at every
    /// value. Values and the completion are delivered through the scheduler.
    ///
    /// ```swift
    /// let answer = request.timeout(.seconds(10), scheduler: DispatchQueue.main) { URLError(.timedOut) }
    /// ```
    @inlinable
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that ends the stream when its upstream is silent for too long.
    ///
    /// ```swift
    /// let answer = Publishers.Timeout(upstream: request, interval: .seconds(10), scheduler: DispatchQueue.main, options: nil, customError: nil)
    /// ```
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher watched.
        public let upstream: Upstream
        /// How long the upstream may stay silent.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the wait is timed and events are delivered.
        public let scheduler: Context
        /// The options used for scheduling.
        public let options: Context.SchedulerOptions?
        /// Makes the error sent on timeout; `nil` finishes normally instead.
        public let customError: (() -> Upstream.Failure)?

        /// Makes a publisher that times out `upstream` after `interval` of silence.
        ///
        /// ```swift
        /// let answer = Publishers.Timeout(upstream: request, interval: .seconds(5), scheduler: DispatchQueue.main, options: nil, customError: nil)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber`; the wait starts now.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: TimeoutSubscription(downstream: subscriber, timeout: self))
        }
    }
}

/// The subscription of `timeout`. Each (re)start of the wait arms a repeating timer (as
/// Combine does) and cancels the previous one; a generation number makes a timer that was
/// replaced while firing do nothing. The timer action holds the subscription strongly, so a
/// pipeline that nothing else keeps alive still times out; cancelling the timer on completion,
/// cancel or timeout lets it go.
@usableFromInline
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let timeout: Publishers.Timeout<Upstream, Context>
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
    @usableFromInline
    @exclusivity(unchecked)
    var requested = false
    @usableFromInline
    @exclusivity(unchecked)
    var timer: (any Cancellable)?

    @inlinable
    init(downstream: Downstream, timeout: Publishers.Timeout<Upstream, Context>) {
        self.downstream = Box(downstream)
        self.timeout = timeout
    }

    /// Starts the wait again.
    @inlinable
    func restartWait() {
        guard
            let armed = lock.withLockUnchecked({ () -> Int? in
                guard case .subscribed = status else { return nil }
                generation += 1
                return generation
            })
        else { return }
        let scheduler = timeout.scheduler
        // The timer is cancelled when it first fires, so its period only has to be valid: a
        // zero or negative timeout (which fires at once) repeats every nanosecond.
        let period = max(timeout.interval, .nanoseconds(1))
        let newTimer = scheduler.schedule(
            after: scheduler.now.advanced(by: timeout.interval), interval: period,
            tolerance: scheduler.minimumTolerance, options: timeout.options
        ) { [self] in
            timedOut(armed)
        }
        // Keep the new timer unless the wait was restarted or ended meanwhile; cancel the other.
        let replaced = lock.withLockUnchecked { () -> (any Cancellable)? in
            guard armed == generation, case .subscribed = status else { return newTimer }
            defer { timer = newTimer }
            return timer
        }
        replaced?.cancel()
    }

    /// Wait number `armed` is over: if nothing restarted it, end the stream.
    @inlinable
    func timedOut(_ armed: Int) {
        let taken = lock.withLockUnchecked { () -> (any Subscription, Box<Downstream>, (any Cancellable)?)? in
            guard armed == generation, case .subscribed(let upstream) = status, let downstream else { return nil }
            status = .terminal
            self.downstream = nil
            defer { timer = nil }
            return (upstream, downstream, timer)
        }
        guard let (upstream, downstream, timer) = taken else { return }
        timer?.cancel()
        upstream.cancel()
        downstream.value.receive(completion: timeout.customError.map { .failure($0()) } ?? .finished)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let downstream = lock.withLockUnchecked({ downstream }) else {
            subscription.cancel()
            return
        }
        restartWait()
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        restartWait()
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            guard
                let (downstream, upstream) = lock.withLockUnchecked({ () -> (Box<Downstream>, any Subscription)? in
                    guard case .subscribed(let upstream) = status, let downstream else { return nil }
                    return (downstream, upstream)
                })
            else { return }
            let demand = downstream.value.receive(input)
            if demand > 0 { upstream.request(demand) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let timer = lock.withLockUnchecked { () -> (any Cancellable)? in
            generation += 1
            defer { self.timer = nil }
            return self.timer
        }
        timer?.cancel()
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
                guard case .subscribed = status else { return nil }
                status = .terminal
                defer { self.downstream = nil }
                return self.downstream
            }
            downstream?.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (upstream, first) = lock.withLockUnchecked { () -> (SubscriptionStatus, Bool) in
            defer { requested = true }
            return (status, !requested)
        }
        if first { restartWait() }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?, (any Cancellable)?) in
            defer {
                status = .terminal
                downstream = nil
                timer = nil
                generation += 1
            }
            return (status, downstream, timer)
        }
        taken.2?.cancel()
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "Timeout" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
