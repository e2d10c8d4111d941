extension Publisher {
    /// Replaces each value with the time since the previous one (the first: since the
    /// subscription), as measured by `scheduler`.
    ///
    /// ```swift
    /// let gaps = keystrokes.measureInterval(using: DispatchQueue.main)
    /// ```
    @inlinable
    public func measureInterval<S: Scheduler>(
        using scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher of the intervals between its upstream's values.
    ///
    /// ```swift
    /// let gaps = Publishers.MeasureInterval(upstream: keystrokes, scheduler: DispatchQueue.main)
    /// ```
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The time since the previous value.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are timed.
        public let upstream: Upstream
        /// The scheduler whose clock measures.
        public let scheduler: Context

        /// Makes a publisher of the intervals between `upstream`'s values.
        ///
        /// ```swift
        /// let gaps = Publishers.MeasureInterval(upstream: keystrokes, scheduler: queue)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber`; the clock starts when the upstream subscription arrives.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: MeasureIntervalSubscription<Upstream.Output, S, Context>(downstream: subscriber, scheduler: scheduler)
            )
        }
    }
}

/// The subscription of `measureInterval(using:)`: reads the scheduler's `now` when the upstream
/// subscription arrives and on each value, and delivers the time since the previous reading.
/// As in Combine, it returns `.none` for a value and requests the downstream's answer upstream.
///
/// The state lives in a ``MeasureIntervalStateMachine`` behind one lock; `now` and the calls it
/// decides on are made outside it.
@usableFromInline
final class MeasureIntervalSubscription<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: MeasureIntervalStateMachine<Downstream, Context.SchedulerTimeType>

    @inlinable
    init(downstream: Downstream, scheduler: Context) {
        self.scheduler = scheduler
        machine = MeasureIntervalStateMachine(downstream: downstream)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let now = scheduler.now
        guard let downstream = lock.withLockUnchecked({ machine.receiveSubscription(subscription, now: now) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        guard let measured = lock.withLockUnchecked({ machine.receiveValue(now: now) }) else { return .none }
        let demand = measured.downstream.value.receive(measured.interval)
        if demand > 0 { measured.upstream.request(demand) }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLockUnchecked { machine.receiveCompletion() }?.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { machine.request() }?.request(demand)
    }

    @inlinable
    func cancel() {
        // The downstream is released here, outside the lock.
        lock.withLockUnchecked { machine.cancel() }?.upstream.cancel()
    }

    @usableFromInline
    var description: String { "MeasureInterval" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
