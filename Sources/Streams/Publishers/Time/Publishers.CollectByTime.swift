extension Publisher {
    /// Collects values and sends them as arrays on a schedule: at the end of every interval (if
    /// anything was collected), and with `.byTimeOrCount` also as soon as a group is full.
    ///
    /// When upstream finishes, what is left goes as a last array before `.finished`; a failure is
    /// passed on at once and what was collected is discarded. Arrays are sent on the scheduler
    /// and wait there for downstream demand. As in Combine, upstream is asked for one value at a
    /// time: one when subscribed, then one more for each value and for each downstream request.
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

/// The subscription of ``Publishers/CollectByTime``, with its state in a
/// ``CollectByTimeStateMachine``. Every delivery goes through the scheduler: the interval timer
/// and a full group each schedule a flush, which sends what demand allows. As in Combine, it asks
/// upstream for one value at a time: one when subscribed, one more per value received and per
/// downstream request. Scheduled work holds the subscription strongly, so collected values are
/// delivered even when nothing else keeps the pipeline alive; completion and cancel stop the
/// timer, which lets go.
@usableFromInline
final class CollectByTimeSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let interval: Context.SchedulerTimeType.Stride
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var state: CollectByTimeStateMachine<Downstream, Upstream.Output>

    @inlinable
    init(downstream: Downstream, collect: Publishers.CollectByTime<Upstream, Context>) {
        options = collect.options
        switch collect.strategy {
        case .byTime(let scheduler, let interval):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = CollectByTimeStateMachine(downstream: downstream, count: nil)
        case .byTimeOrCount(let scheduler, let interval, let count):
            (self.scheduler, self.interval) = (scheduler, interval)
            state = CollectByTimeStateMachine(downstream: downstream, count: count)
        }
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLockUnchecked({ state.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval,
            tolerance: scheduler.minimumTolerance, options: options
        ) { [self] in
            flush()
        }
        lock.withLockUnchecked { state.armed(timer) }?.cancel()
        downstream.value.receive(subscription: self)
        subscription.request(.max(1))
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let full = lock.withLockUnchecked({ state.receiveValue(input) }) else { return .none }
        if full { scheduler.schedule(options: options) { [self] in flush(onlyFullGroups: true) } }
        return .max(1)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch lock.withLockUnchecked({ state.receiveCompletion(completion) }) {
        case .ignore:
            break
        case .flush:
            scheduler.schedule(options: options) { [self] in flush() }
        case .fail(let downstream, let timer):
            timer?.cancel()
            downstream.value.receive(completion: completion)
        }
    }

    /// Sends the groups that demand allows (with `onlyFullGroups`, only full groups); then
    /// finishes if upstream has and nothing is left.
    @inlinable
    func flush(onlyFullGroups: Bool = false) {
        while true {
            switch lock.withLockUnchecked({ state.flushStep(onlyFullGroups: onlyFullGroups) }) {
            case .idle:
                return
            case .send(let downstream, let group):
                let more = downstream.value.receive(group)
                if more > 0 { _ = lock.withLockUnchecked { state.request(more) } }
            case .finish(let downstream, let timer):
                timer?.cancel()
                downstream.value.receive(completion: .finished)
                return
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let (upstream, flushDue) = lock.withLockUnchecked { state.request(demand) }
        upstream?.request(.max(1))
        if flushDue { scheduler.schedule(options: options) { [self] in flush() } }
    }

    @inlinable
    func cancel() {
        // What the machine held is released here, outside the lock.
        let (timer, upstream, _) = lock.withLockUnchecked { state.cancel() }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "CollectByTime" }

    @usableFromInline
    var customMirror: Mirror {
        let (downstream, buffered) = lock.withLockUnchecked { state.reflected }
        return Mirror(self, children: ["downstream": downstream as Any, "buffered": buffered])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
