extension Publisher {
    /// Collects values and sends them as arrays on a schedule: at the end of every interval (if
    /// anything was collected), and with `.byTimeOrCount` also as soon as a group is full.
    ///
    /// When upstream finishes, what is left goes as a last array before `.finished`; a failure is
    /// passed on at once and what was collected is discarded. Arrays are sent on the scheduler
    /// and wait there for downstream demand. Upstream is asked for unlimited values with
    /// `.byTime`, and for `count` values per array asked for with `.byTimeOrCount`.
    ///
    /// ```swift
    /// let batches = clicks.collect(.byTimeOrCount(DispatchQueue.main, .seconds(1), 50))
    /// ```
    @inlinable
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A publisher that sends its upstream's values in arrays on a schedule.
    ///
    /// ```swift
    /// let batches = Publishers.CollectByTime(upstream: clicks, strategy: .byTime(queue, .seconds(1)), options: nil)
    /// ```
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The values collected in one group.
        public typealias Output = [Upstream.Output]
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are collected.
        public let upstream: Upstream
        /// When groups are sent.
        public let strategy: TimeGroupingStrategy<Context>
        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher of `upstream`'s values grouped by `strategy`. The interval must not
        /// be negative and a count must be at least 1.
        ///
        /// ```swift
        /// let batches = Publishers.CollectByTime(upstream: clicks, strategy: .byTime(queue, .seconds(1)), options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            switch strategy {
            case .byTime(_, let interval):
                precondition(interval >= .zero, "collect(.byTime) requires an interval of zero or more, got \(interval)")
            case .byTimeOrCount(_, let interval, let count):
                precondition(interval >= .zero, "collect(.byTimeOrCount) requires an interval of zero or more, got \(interval)")
                precondition(count > 0, "collect(.byTimeOrCount) requires a count of at least 1")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CollectByTimeSubscription(downstream: subscriber, collect: self))
        }
    }
}

/// The subscription of ``Publishers/CollectByTime``. Every delivery goes through the scheduler:
/// the interval timer and a full group each schedule a flush, which sends what demand allows.
/// Scheduled work holds the subscription strongly, so collected values are delivered even when
/// nothing else keeps the pipeline alive; completion and cancel stop the timer, which lets go.
@usableFromInline
final class CollectByTimeSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    /// The largest group, for `.byTimeOrCount`.
    @usableFromInline
    let count: Int?
    @usableFromInline
    let options: Context.SchedulerOptions?
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
    var buffer: [Upstream.Output] = []
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    /// Upstream finished: finish once the buffer is sent.
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamFinished = false
    @usableFromInline
    @exclusivity(unchecked)
    var timer: (any Cancellable)?
    /// A group was due but had no demand: the next request sends it.
    @usableFromInline
    @exclusivity(unchecked)
    var held = false
    /// `.byTime` has asked upstream for unlimited values.
    @usableFromInline
    @exclusivity(unchecked)
    var askedUnlimited = false

    @inlinable
    init(downstream: Downstream, collect: Publishers.CollectByTime<Upstream, Context>) {
        self.downstream = Box(downstream)
        options = collect.options
        switch collect.strategy {
        case .byTime(let scheduler, let interval):
            (self.scheduler, self.interval, count) = (scheduler, interval, nil)
        case .byTimeOrCount(let scheduler, let interval, let count):
            (self.scheduler, self.interval, self.count) = (scheduler, interval, count)
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, downstream != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let downstream = lock.withLockUnchecked({ downstream }) else {
            subscription.cancel()
            return
        }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval,
            tolerance: scheduler.minimumTolerance, options: options
        ) { [self] in
            flush()
        }
        let stale = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return true }
            self.timer = timer
            return false
        }
        if stale { timer.cancel() }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        let full = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return false }
            buffer.append(input)
            return count.map { buffer.count == $0 } ?? false
        }
        if full { scheduler.schedule(options: options) { [self] in flush(onlyFullGroups: true) } }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            let subscribed = lock.withLockUnchecked { () -> Bool in
                guard case .subscribed = status else { return false }
                status = .terminal
                upstreamFinished = true
                return true
            }
            if subscribed { scheduler.schedule(options: options) { [self] in flush() } }
        case .failure:
            let taken = lock.withLockUnchecked { () -> (Box<Downstream>?, (any Cancellable)?, [Upstream.Output]) in
                guard case .subscribed = status else { return (nil, nil, []) }
                status = .terminal
                defer {
                    downstream = nil
                    timer = nil
                    buffer = []
                }
                return (downstream, timer, buffer)
            }
            taken.1?.cancel()
            taken.0?.value.receive(completion: completion)
        }
    }

    /// Sends the groups that demand allows (with `onlyFullGroups`, only groups of `count`); then
    /// finishes if upstream has and nothing is left.
    @inlinable
    func flush(onlyFullGroups: Bool = false) {
        while true {
            let step = lock.withLockUnchecked { () -> FlushStep in
                guard let downstream else { return .idle }
                let ready = onlyFullGroups ? buffer.count >= (count ?? .max) : !buffer.isEmpty
                if ready && demand == 0 { held = true }
                if ready && demand > 0 {
                    demand -= 1
                    let size = min(buffer.count, count ?? buffer.count)
                    let group = Array(buffer.prefix(size))
                    buffer.removeFirst(size)
                    return .send(downstream, group)
                }
                if !ready { held = false }
                guard upstreamFinished, buffer.isEmpty else { return .idle }
                defer {
                    self.downstream = nil
                    timer = nil
                }
                return .finish(downstream, timer)
            }
            switch step {
            case .idle:
                return
            case .send(let downstream, let group):
                let more = downstream.value.receive(group)
                if more > 0 { lock.withLockUnchecked { demand += more } }
            case .finish(let downstream, let timer):
                timer?.cancel()
                downstream.value.receive(completion: .finished)
                return
            }
        }
    }

    /// What `flush()` does once it has left the lock.
    @usableFromInline
    enum FlushStep {
        case idle
        case send(Box<Downstream>, [Upstream.Output])
        case finish(Box<Downstream>, (any Cancellable)?)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // `.none` adds nothing; it must not count as the first request that asks for `.unlimited`.
        guard demand > 0 else { return }
        let (upstream, upstreamDemand, waiting) = lock.withLockUnchecked {
            () -> (SubscriptionStatus, Subscribers.Demand, Bool) in
            self.demand += demand
            var upstreamDemand = Subscribers.Demand.none
            if let count {
                upstreamDemand = demand * count
            } else if !askedUnlimited {
                askedUnlimited = true
                upstreamDemand = .unlimited
            }
            return (status, upstreamDemand, held || upstreamFinished)
        }
        if upstreamDemand > 0 { upstream.request(upstreamDemand) }
        if waiting { scheduler.schedule(options: options) { [self] in flush() } }
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked {
            () -> (SubscriptionStatus, Box<Downstream>?, (any Cancellable)?, [Upstream.Output]) in
            defer {
                status = .terminal
                downstream = nil
                timer = nil
                buffer = []
                upstreamFinished = false
            }
            return (status, downstream, timer, buffer)
        }
        taken.2?.cancel()
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "CollectByTime" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream?.value as Any, "buffered": buffer.count]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
