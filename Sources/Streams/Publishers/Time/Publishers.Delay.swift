import Synchronization

extension Publisher {
    /// Delivers every value, and the completion (a failure too), `interval` later on
    /// `scheduler`.
    ///
    /// Demand passes straight through.
    ///
    /// ```swift
    /// let later = taps.delay(for: .milliseconds(300), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride,
        tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers its upstream's events a fixed interval later.
    ///
    /// ```swift
    /// let later = Publishers.Delay(upstream: taps, interval: .seconds(1), tolerance: .zero, scheduler: DispatchQueue.main)
    /// ```
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are delayed.
        public let upstream: Upstream
        /// How long each event waits.
        public let interval: Context.SchedulerTimeType.Stride
        /// How much later than planned an event may arrive.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where events are delivered.
        public let scheduler: Context
        /// The options used for each delivery.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that delivers `upstream`'s events `interval` later.
        ///
        /// ```swift
        /// let later = Publishers.Delay(upstream: taps, interval: .seconds(1), tolerance: .zero, scheduler: DispatchQueue.main)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; its events arrive `interval` after upstream's.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: DelaySubscription(downstream: subscriber, delay: self))
        }
    }
}

/// The subscription of `delay(for:tolerance:scheduler:options:)`.
@usableFromInline
final class DelaySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let delay: Publishers.Delay<Upstream, Context>
    @usableFromInline
    let lock = Mutex<Void>(())
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?

    @inlinable
    init(downstream: Downstream, delay: Publishers.Delay<Upstream, Context>) {
        self.downstream = Box(downstream)
        self.delay = delay
    }

    /// Runs `action` `interval` from now on the scheduler.
    @inlinable
    func later(_ action: @escaping () -> Void) {
        let scheduler = delay.scheduler
        scheduler.schedule(after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance, options: delay.options, action)
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
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        later { [self] in
            guard let (downstream, upstream) = lock.withLockUnchecked({ () -> (Box<Downstream>, any Subscription)? in
                guard case .subscribed(let upstream) = status, let downstream else { return nil }
                return (downstream, upstream)
            }) else { return }
            let demand = downstream.value.receive(input)
            if demand > 0 { upstream.request(demand) }
        }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        later { [self] in
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
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { status.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, Box<Downstream>?) in
            defer {
                status = .terminal
                downstream = nil
            }
            return (status.subscription, downstream)
        }
        taken.0?.cancel()
    }

    @usableFromInline
    var description: String { "Delay" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream?.value as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
