extension Publisher {
    /// Passes on at most one value per `interval`: the newest (`latest: true`) or the first
    /// (`latest: false`) of those that arrived in the window.
    ///
    /// The first value goes out on the scheduler's next turn; after that, a window ends
    /// `interval` after the previous value went out. A value with no demand for it is dropped.
    /// On completion, a value still waiting is sent first.
    ///
    /// ```swift
    /// let scrolled = scrollOffsets.throttle(for: .milliseconds(100), scheduler: DispatchQueue.main, latest: true)
    /// ```
    @inlinable
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        scheduler: S,
        latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that passes on at most one of its upstream's values per interval.
    ///
    /// ```swift
    /// let throttled = Publishers.Throttle(upstream: offsets, interval: .seconds(1), scheduler: DispatchQueue.main, latest: true)
    /// ```
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being throttled.
        public let upstream: Upstream
        /// The shortest time between two values sent.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where windows are timed and values are delivered.
        public let scheduler: Context
        /// Whether the newest value of a window is sent (`true`) or its first (`false`).
        public let latest: Bool

        /// Makes a publisher that throttles `upstream`.
        ///
        /// ```swift
        /// let throttled = Publishers.Throttle(upstream: offsets, interval: .seconds(1), scheduler: DispatchQueue.main, latest: false)
        /// ```
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ThrottleSubscription(downstream: subscriber, throttle: self))
        }
    }
}

/// The subscription of `throttle`.
@usableFromInline
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let throttle: Publishers.Throttle<Upstream, Context>
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
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var pending: Downstream.Input?
    @usableFromInline
    @exclusivity(unchecked)
    var lastEmission: Context.SchedulerTimeType?
    @usableFromInline
    @exclusivity(unchecked)
    var emissionScheduled = false
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamDone = false

    @inlinable
    init(downstream: Downstream, throttle: Publishers.Throttle<Upstream, Context>) {
        self.downstream = Box(downstream)
        self.throttle = throttle
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
        downstream.value.receive(subscription: self)
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        let scheduler = throttle.scheduler
        // nil: nothing to schedule; .some(nil): next turn; .some(date): at date.
        let plan = lock.withLockUnchecked { () -> Context.SchedulerTimeType?? in
            guard case .subscribed = status, !upstreamDone else { return nil }
            if throttle.latest || pending == nil { pending = input }
            guard !emissionScheduled else { return nil }
            emissionScheduled = true
            guard let lastEmission else { return .some(nil) }
            let windowEnd = lastEmission.advanced(by: throttle.interval)
            return .some(max(windowEnd, scheduler.now))
        }
        switch plan {
        case .none:
            break
        case .some(.none):
            scheduler.schedule(options: nil) { [weak self] in self?.emit() }
        case .some(.some(let date)):
            scheduler.schedule(after: date, tolerance: scheduler.minimumTolerance, options: nil) { [weak self] in self?.emit() }
        }
        return .none
    }

    /// The window is over: send the pending value if there is demand for it.
    @inlinable
    func emit() {
        let scheduler = throttle.scheduler
        let taken = lock.withLockUnchecked { () -> (Box<Downstream>, Downstream.Input)? in
            emissionScheduled = false
            guard case .subscribed = status, let value = pending, let downstream else { return nil }
            pending = nil
            guard demand > 0 else { return nil }
            demand -= 1
            lastEmission = scheduler.now
            return (downstream, value)
        }
        guard let (downstream, value) = taken else { return }
        let more = downstream.value.receive(value)
        if more > 0 {
            lock.withLockUnchecked { demand += more }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        guard
            lock.withLockUnchecked({ () -> Bool in
                guard case .subscribed = status, !upstreamDone else { return false }
                upstreamDone = true
                return true
            })
        else { return }
        throttle.scheduler.schedule(options: nil) { [self] in
            let taken = lock.withLockUnchecked { () -> (Box<Downstream>, Downstream.Input?)? in
                guard case .subscribed = status, let downstream else { return nil }
                status = .terminal
                self.downstream = nil
                defer { pending = nil }
                return (downstream, demand > 0 ? pending : nil)
            }
            guard let (downstream, last) = taken else { return }
            if let last { _ = downstream.value.receive(last) }
            downstream.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { self.demand += demand }
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?) in
            defer {
                status = .terminal
                downstream = nil
                pending = nil
            }
            return (status, downstream)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "Throttle" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
