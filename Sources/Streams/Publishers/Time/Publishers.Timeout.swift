extension Publisher {
    /// Ends the stream if the upstream stays silent for `interval`: with the error
    /// `customError` makes, or, without one, by finishing normally.
    ///
    /// The wait starts at subscription and starts again at the first request and at every
    /// value. Values and the completion are delivered through the scheduler. An
    /// `ImmediateScheduler` cannot time anything: it stops the program with a message.
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

/// The subscription of `timeout`, with its state in a ``TimeoutStateMachine``.
///
/// Each (re)start of the wait arms a repeating timer, as Combine does: reading `now`, then
/// `minimumTolerance`. Values and the completion are delivered through `schedule(options:)`. The
/// timer action and the scheduled deliveries hold the subscription strongly, so a pipeline that
/// nothing else keeps alive still times out; cancelling the timer on completion, cancel or
/// timeout lets it go.
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
    var state: TimeoutStateMachine<Downstream>

    @inlinable
    init(downstream: Downstream, timeout: Publishers.Timeout<Upstream, Context>) {
        state = TimeoutStateMachine(downstream: downstream)
        self.timeout = timeout
    }

    /// Arms the timer of wait number `wait`, replacing the previous one.
    @inlinable
    func arm(_ wait: Int) {
        let scheduler = timeout.scheduler
        let start = scheduler.now
        let tolerance = scheduler.minimumTolerance
        // The timer is cancelled when it first fires, so its period only has to be valid: a
        // zero or negative timeout (which fires at once) repeats every nanosecond.
        let period = max(timeout.interval, .nanoseconds(1))
        let timer = scheduler.schedule(
            after: start.advanced(by: timeout.interval), interval: period, tolerance: tolerance, options: timeout.options
        ) { [self] in
            timedOut(wait)
        }
        lock.withLockUnchecked { state.armed(wait, timer: timer) }?.cancel()
    }

    /// Wait number `wait` is over: if nothing restarted it, end the stream.
    @inlinable
    func timedOut(_ wait: Int) {
        guard let (timer, upstream, downstream) = lock.withLockUnchecked({ state.timedOut(wait) }) else { return }
        timer?.cancel()
        upstream.cancel()
        downstream.value.receive(completion: timeout.customError.map { .failure($0()) } ?? .finished)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        switch lock.withLockUnchecked({ state.receiveSubscription(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .arm(let downstream):
            // Combine's timer fires inside its lock on a synchronous scheduler and deadlocks; say why.
            precondition(Context.self != ImmediateScheduler.self, "timeout cannot be used with ImmediateScheduler")
            arm(1)
            downstream.value.receive(subscription: self)
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let wait = lock.withLockUnchecked({ state.receiveValue() }) else { return .none }
        arm(wait)
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            guard let downstream = lock.withLockUnchecked({ state.deliverValue() }) else { return }
            let demand = downstream.value.receive(input)
            guard demand > 0 else { return }
            lock.withLockUnchecked { state.demandAfterDelivery() }?.request(demand)
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard let timer = lock.withLockUnchecked({ state.receiveCompletion() }) else { return }
        timer?.cancel()
        timeout.scheduler.schedule(options: timeout.options) { [self] in
            lock.withLockUnchecked { state.deliverCompletion() }?.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (wait, upstream) = lock.withLockUnchecked { state.request() }
        if let wait { arm(wait) }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream is released here, outside the lock.
        let (timer, upstream, _) = lock.withLockUnchecked { state.cancel() }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "Timeout" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
