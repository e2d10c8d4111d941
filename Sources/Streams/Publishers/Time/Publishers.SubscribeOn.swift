extension Publisher {
    /// Subscribes, requests and cancels on `scheduler`; values are not moved.
    ///
    /// Use it to start expensive or blocking work off the current thread. The upstream is never
    /// entered twice at once: on a synchronous scheduler, a request made from inside the
    /// upstream's own `request` is made when that call returns (Combine traps).
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

/// The subscription of `subscribe(on:)`: values and the completion go straight downstream; every
/// request and the cancel reach the upstream from an action scheduled with
/// `schedule(options:)`. The scheduled actions hold the subscription, and so the downstream,
/// strongly until they have run, as in Combine.
///
/// The state lives in a ``SubscribeOnStateMachine`` behind one lock; the calls it decides on run
/// outside it.
@usableFromInline
final class SubscribeOnSubscription<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Machine = SubscribeOnStateMachine<Downstream>

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let options: Context.SchedulerOptions?
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: Machine

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        machine = Machine(downstream: downstream)
        self.scheduler = scheduler
        self.options = options
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLockUnchecked({ machine.receiveSubscription(subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        guard let downstream = lock.withLockUnchecked({ machine.receiveValue() }) else { return .none }
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.withLockUnchecked { machine.receiveCompletion() }?.downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard lock.withLockUnchecked({ machine.request() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(lock.withLockUnchecked { machine.requestRan(demand) })
        }
    }

    @inlinable
    func cancel() {
        guard lock.withLockUnchecked({ machine.cancel() }) else { return }
        scheduler.schedule(options: options) { [self] in
            perform(lock.withLockUnchecked { machine.cancelRan() })
        }
    }

    /// Makes `first` on the upstream, then the calls left to this thread meanwhile.
    @inlinable
    func perform(_ first: Machine.UpstreamCall?) {
        var next = first
        while let call = next {
            switch call {
            case .request(let upstream, let demand):
                upstream.request(demand)
            case .cancel(let upstream, let downstream):
                upstream.cancel()
                withExtendedLifetime(downstream) {}
            }
            next = lock.withLockUnchecked { machine.callReturned() }
        }
    }

    @usableFromInline
    var description: String { "SubscribeOn" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
