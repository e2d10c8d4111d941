extension Publisher {
    /// Subscribes, requests and cancels on `scheduler`; values are not moved.
    ///
    /// Use it to start expensive or blocking work off the current thread.
    ///
    /// ```swift
    /// let cancellable = expensiveScan
    ///     .subscribe(on: DispatchQueue.global())
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { print($0) }
    /// ```
    @inlinable
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that subscribes to, requests from and cancels its upstream on a scheduler.
    ///
    /// ```swift
    /// let background = Publishers.SubscribeOn(upstream: scan, scheduler: DispatchQueue.global(), options: nil)
    /// ```
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed on the scheduler.
        public let upstream: Upstream
        /// Where subscribing, requests and cancellation happen.
        public let scheduler: Context
        /// The options used for each scheduled call.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that subscribes to `upstream` on `scheduler`.
        ///
        /// ```swift
        /// let background = Publishers.SubscribeOn(upstream: scan, scheduler: DispatchQueue.global(), options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Schedules the subscription to `upstream`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let upstream = self.upstream
            let subscription = SubscribeOnSubscription(downstream: subscriber, scheduler: scheduler, options: options)
            scheduler.schedule(options: options) {
                upstream.receive(subscriber: subscription)
            }
        }
    }
}

/// The subscription of `subscribe(on:)`. The scheduled requests and the scheduled cancel hold
/// it strongly, and a cancel lets go of the downstream only once the upstream has been
/// cancelled on the scheduler, as in Combine; values that arrive after the cancel are ignored.
@usableFromInline
final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let scheduler: Context
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

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = Box(downstream)
        self.scheduler = scheduler
        self.options = options
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
        guard let downstream = lock.withLockUnchecked({ status.subscription == nil ? nil : downstream }) else {
            return .none
        }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let downstream = lock.withLockUnchecked { () -> Box<Downstream>? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            defer { self.downstream = nil }
            return self.downstream
        }
        downstream?.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard let upstream = lock.withLockUnchecked({ status.subscription }) else { return }
        scheduler.schedule(options: options) { [self] in
            withExtendedLifetime(self) { upstream.request(demand) }
        }
    }

    @inlinable
    func cancel() {
        let upstream = lock.withLockUnchecked { () -> (any Subscription)? in
            defer { status = .terminal }
            return status.subscription
        }
        guard let upstream else { return releaseDownstream() }
        scheduler.schedule(options: options) { [self] in
            upstream.cancel()
            releaseDownstream()
        }
    }

    /// Lets go of the downstream, outside the lock.
    @inlinable
    func releaseDownstream() {
        let released = lock.withLockUnchecked { () -> Box<Downstream>? in
            defer { downstream = nil }
            return downstream
        }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
