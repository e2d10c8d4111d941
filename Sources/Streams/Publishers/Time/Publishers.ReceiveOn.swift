import Synchronization

extension Publisher {
    /// Delivers values and the completion on `scheduler`.
    ///
    /// The subscription is handed over at once; each value and the completion is scheduled with
    /// `scheduler.schedule(options:_:)`. Requests and cancellation go straight upstream. The
    /// scheduler must be serial (a serial `DispatchQueue`, the main queue, a `TestScheduler`).
    ///
    /// ```swift
    /// let cancellable = request
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { label.text = $0 }
    /// ```
    @inlinable
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers its upstream's events on a scheduler.
    ///
    /// ```swift
    /// let onMain = Publishers.ReceiveOn(upstream: request, scheduler: DispatchQueue.main, options: nil)
    /// ```
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events move.
        public let upstream: Upstream
        /// Where events are delivered.
        public let scheduler: Context
        /// The options used for each delivery.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that delivers `upstream`'s events on `scheduler`.
        ///
        /// ```swift
        /// let onMain = Publishers.ReceiveOn(upstream: request, scheduler: DispatchQueue.main, options: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; its events arrive on the scheduler.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnSubscription(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

/// The subscription of `receive(on:)`.
@usableFromInline
final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?
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
        scheduler.schedule(options: options) { [self] in
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
        scheduler.schedule(options: options) { [self] in
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
    var description: String { "ReceiveOn" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream?.value as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
