extension Publisher {
    /// Passes on a value only after `dueTime` has passed without another value: the last of
    /// each burst.
    ///
    /// Each value restarts the wait. When the wait ends, the value is sent if the subscriber has
    /// demand for it, and dropped otherwise. As in Combine, a value still waiting when the
    /// upstream finishes or fails is discarded, and the completion is delivered through the
    /// scheduler; pass `deliversPendingValueOnFinish: true` to send that value before `.finished`
    /// instead.
    ///
    /// ```swift
    /// let settledNames = $userName
    ///     .debounce(for: .milliseconds(800), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride,
        scheduler: S,
        options: S.SchedulerOptions? = nil,
        deliversPendingValueOnFinish: Bool = false
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(
            upstream: self, dueTime: dueTime, scheduler: scheduler, options: options,
            deliversPendingValueOnFinish: deliversPendingValueOnFinish)
    }
}

extension Publishers {
    /// A publisher that passes on a value only once its upstream has been quiet for a while.
    ///
    /// ```swift
    /// let settled = Publishers.Debounce(upstream: keystrokes, dueTime: .milliseconds(800), scheduler: DispatchQueue.main, options: nil)
    /// ```
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose bursts are debounced.
        public let upstream: Upstream
        /// How long the upstream must be quiet before a value is sent.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where the wait is timed and values are delivered.
        public let scheduler: Context
        /// The options used for scheduling.
        public let options: Context.SchedulerOptions?
        /// Whether a value still waiting when the upstream finishes is sent before `.finished`
        /// (Combine discards it).
        public let deliversPendingValueOnFinish: Bool

        /// Makes a publisher that debounces `upstream`. `dueTime` must not be negative.
        ///
        /// ```swift
        /// let settled = Publishers.Debounce(upstream: keystrokes, dueTime: .seconds(1), scheduler: DispatchQueue.main, options: nil)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            dueTime: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions?,
            deliversPendingValueOnFinish: Bool = false
        ) {
            precondition(dueTime >= .zero, "debounce(for:) requires a dueTime of zero or more, got \(dueTime)")
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
            self.deliversPendingValueOnFinish = deliversPendingValueOnFinish
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DebounceSubscription(downstream: subscriber, debounce: self))
        }
    }
}

/// The subscription of `debounce`.
///
/// It asks upstream for everything. Each value replaces the pending one and re-arms a repeating
/// timer (cancelled when it fires, as Combine does); a generation number makes a timer that was
/// replaced while firing do nothing. The timer action holds the subscription strongly, as in
/// Combine, so a pending value arrives even when nothing else keeps the pipeline alive.
@usableFromInline
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let debounce: Publishers.Debounce<Upstream, Context>
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
    var timer: (any Cancellable)?
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamDone = false

    @inlinable
    init(downstream: Downstream, debounce: Publishers.Debounce<Upstream, Context>) {
        self.downstream = Box(downstream)
        self.debounce = debounce
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
        guard
            let (armed, previous) = lock.withLockUnchecked({ () -> (Int, (any Cancellable)?)? in
                guard case .subscribed = status, !upstreamDone else { return nil }
                pending = input
                self.generation += 1
                defer { self.timer = nil }
                return (self.generation, self.timer)
            })
        else { return .none }
        previous?.cancel()
        let scheduler = debounce.scheduler
        let newTimer = scheduler.schedule(
            after: scheduler.now.advanced(by: debounce.dueTime), interval: debounce.dueTime,
            tolerance: scheduler.minimumTolerance, options: debounce.options
        ) { [self] in
            fire(armed)
        }
        let stale = lock.withLockUnchecked { () -> Bool in
            guard armed == self.generation, case .subscribed = status, !upstreamDone else { return true }
            self.timer = newTimer
            return false
        }
        if stale { newTimer.cancel() }
        return .none
    }

    /// The wait for value `generation` is over: send it if there is demand.
    @inlinable
    func fire(_ generation: Int) {
        let taken = lock.withLockUnchecked { () -> ((any Cancellable)?, Box<Downstream>?, Downstream.Input?) in
            guard generation == self.generation, case .subscribed = status else { return (nil, nil, nil) }
            defer {
                timer = nil
                pending = nil
            }
            guard let value = pending, demand > 0, let downstream else { return (timer, nil, nil) }
            demand -= 1
            return (timer, downstream, value)
        }
        taken.0?.cancel()
        guard let downstream = taken.1, let value = taken.2 else { return }
        let more = downstream.value.receive(value)
        if more > 0 {
            lock.withLockUnchecked { demand += more }
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let flush = debounce.deliversPendingValueOnFinish
        guard
            let (timer, last) = lock.withLockUnchecked({ () -> ((any Cancellable)?, Downstream.Input?)? in
                guard case .subscribed = status, !upstreamDone else { return nil }
                upstreamDone = true
                generation += 1
                defer {
                    self.timer = nil
                    pending = nil
                }
                if case .finished = completion, flush { return (self.timer, pending) }
                return (self.timer, nil)
            })
        else { return }
        timer?.cancel()
        debounce.scheduler.schedule(options: debounce.options) { [self] in
            let taken = lock.withLockUnchecked { () -> (Box<Downstream>, Bool)? in
                guard case .subscribed = status, let downstream else { return nil }
                status = .terminal
                self.downstream = nil
                let sendLast = last != nil && demand > 0
                return (downstream, sendLast)
            }
            guard let (downstream, sendLast) = taken else { return }
            if sendLast, let last { _ = downstream.value.receive(last) }
            downstream.value.receive(completion: completion)
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        lock.withLockUnchecked { self.demand += demand }
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, (any Cancellable)?, Box<Downstream>?) in
            defer {
                status = .terminal
                downstream = nil
                timer = nil
                pending = nil
                generation += 1
            }
            return (status, timer, downstream)
        }
        taken.1?.cancel()
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "Debounce" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(
                self,
                children: [
                    "downstream": downstream?.value as Any, "downstreamDemand": demand, "currentValue": pending as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
