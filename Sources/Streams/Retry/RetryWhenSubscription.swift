
/// The subscription of `retry(_:when:backoff:scheduler:)`.
///
/// Each attempt has a generation number, so that events of an abandoned attempt are ignored.
/// The decision (RETRY.md's order) is made under the lock; the user's `shouldRetry` and
/// `onRetry` run outside it. The wait is a repeating schedule cancelled when it fires, so that
/// cancelling the subscription removes it from the scheduler. Resubscribing is a loop: an
/// upstream that fails while being subscribed, on a scheduler that runs work at once, does not
/// grow the stack.
@usableFromInline
final class RetryWhenSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscription,
    AttemptParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Configuration = Publishers.RetryWhen<Upstream, Context>

    @usableFromInline
    let scheduler: Context
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var configuration: Configuration?
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var random: any RandomNumberGenerator
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
    @usableFromInline
    @exclusivity(unchecked)
    var retries = 0
    /// The last attempt that has counted as a success for the budget.
    @usableFromInline
    @exclusivity(unchecked)
    var succeededGeneration = 0
    @usableFromInline
    @exclusivity(unchecked)
    var previousDelay: Duration?
    @usableFromInline
    @exclusivity(unchecked)
    var firstSubscription: Context.SchedulerTimeType?
    @usableFromInline
    @exclusivity(unchecked)
    var timer: (any Cancellable)?
    @usableFromInline
    @exclusivity(unchecked)
    var waiting = false
    @usableFromInline
    @exclusivity(unchecked)
    var subscribing = false
    @usableFromInline
    @exclusivity(unchecked)
    var resubscribePending = false
    @usableFromInline
    @exclusivity(unchecked)
    var sentSubscription = false
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false

    @inlinable
    init(configuration: Configuration, downstream: Downstream) {
        self.configuration = configuration
        self.downstream = Box(downstream)
        scheduler = configuration.scheduler
        random = configuration.makeRandom()
    }

    /// The scheduler's stride for `duration`, clamped.
    @inlinable
    func stride(_ duration: Duration) -> Context.SchedulerTimeType.Stride {
        .nanoseconds(Int(clamping: duration.nanoseconds))
    }

    /// Records the start time and makes the first attempt.
    @inlinable
    func start() {
        let now = scheduler.now
        lock.withLockUnchecked { firstSubscription = now }
        subscribeLoop()
    }

    /// Subscribes upstream, again for as long as a retry comes due while subscribing.
    @inlinable
    func subscribeLoop() {
        while true {
            guard let (generation, upstreamPublisher) = lock.withLockUnchecked({ () -> (Int, Upstream)? in
                guard !terminated, let configuration else { return nil }
                if subscribing {
                    resubscribePending = true
                    return nil
                }
                generation += 1
                subscribing = true
                return (generation, configuration.upstream)
            }) else { return }
            upstreamPublisher.receive(subscriber: AttemptLink(parent: self, generation: generation, name: "RetryWhen"))
            let again = lock.withLockUnchecked { () -> Bool in
                subscribing = false
                defer { resubscribePending = false }
                return resubscribePending
            }
            if !again { return }
        }
    }

    @inlinable
    func receive(subscription: any Subscription, generation: Int) {
        let action = lock.withLockUnchecked { () -> SubscriptionAction in
            guard !terminated, generation == self.generation, upstream == nil, let downstream else { return .cancel }
            upstream = subscription
            if !sentSubscription {
                sentSubscription = true
                return .handOver(downstream)
            }
            return .request(demand)
        }
        switch action {
        case .cancel:
            subscription.cancel()
        case .handOver(let downstream):
            downstream.value.receive(subscription: self)
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    /// What to do with a new upstream subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        case cancel
        case handOver(Box<Downstream>)
        case request(Subscribers.Demand)
    }

    @inlinable
    func receive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        guard let (downstream, budget) = lock.withLockUnchecked({ () -> (Box<Downstream>, RetryBudget?)? in
            guard !terminated, generation == self.generation, let downstream = self.downstream else { return nil }
            demand -= 1
            return (downstream, firstSuccess(of: generation))
        }) else { return .none }
        budget?.recordSuccess()
        let additional = downstream.value.receive(input)
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        guard let (configuration, budget) = lock.withLockUnchecked({ () -> (Configuration, RetryBudget?)? in
            guard !terminated, generation == self.generation, let configuration = self.configuration else { return nil }
            upstream = nil
            guard case .finished = completion else { return (configuration, nil) }
            return (configuration, firstSuccess(of: generation))
        }) else { return }
        budget?.recordSuccess()
        guard case .failure(let error) = completion, configuration.shouldRetry(error) else {
            finish(completion)
            return
        }
        switch decide(after: error, generation: generation, configuration: configuration) {
        case .ignore:
            return
        case .giveUp:
            finish(completion)
        case .retry(let attempt):
            guard !lock.withLockUnchecked({ terminated }) else { return }
            configuration.onRetry?(attempt)
            wait(attempt)
        }
    }

    /// The outcome of a failure that `shouldRetry` accepted.
    /// The budget to refill if attempt `generation` has not yet counted as a success; call with
    /// the lock held.
    @inlinable
    func firstSuccess(of generation: Int) -> RetryBudget? {
        guard let budget = configuration?.budget, succeededGeneration != generation else { return nil }
        succeededGeneration = generation
        return budget
    }

    @usableFromInline
    enum Decision {
        case ignore
        case giveUp
        case retry(RetryAttempt<Downstream.Failure>)
    }

    /// Steps 2 to 4 of the decision: retries left, the wait, `maxElapsed`, the server's hint.
    @inlinable
    func decide(after error: Downstream.Failure, generation: Int, configuration: Configuration) -> Decision {
        let hint = ((error as Any) as? any RetryAfterProviding)?.retryAfter.map { max($0, .zero) }
        let now = scheduler.now
        return lock.withLockUnchecked { () -> Decision in
            guard !terminated, generation == self.generation else { return .ignore }
            guard retries < configuration.maxRetries else { return .giveUp }
            let retry = retries + 1
            let backoffDelay = configuration.backoff.delay(forRetry: retry, previous: previousDelay, using: &random)
            let wait = max(hint ?? .zero, backoffDelay)
            if let maxElapsed = configuration.maxElapsed, let firstSubscription,
                now.advanced(by: stride(wait)) > firstSubscription.advanced(by: stride(maxElapsed))
            {
                return .giveUp
            }
            if let hint, hint > configuration.retryAfterLimit { return .giveUp }
            // Last, so that tokens go only to retries that will happen.
            if let budget = configuration.budget, !budget.withdrawRetry() { return .giveUp }
            retries = retry
            previousDelay = backoffDelay
            waiting = true
            return .retry(RetryAttempt(retry: retry, error: error, delay: wait))
        }
    }

    /// Waits `attempt.delay` on the scheduler (even a zero wait), then subscribes again.
    @inlinable
    func wait(_ attempt: RetryAttempt<Downstream.Failure>) {
        let retry = attempt.retry
        let interval = stride(max(attempt.delay, .nanoseconds(1)))
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: stride(attempt.delay)), interval: interval,
            tolerance: scheduler.minimumTolerance, options: nil
        ) { [weak self] in
            self?.waitEnded(retry)
        }
        let stale = lock.withLockUnchecked { () -> Bool in
            guard !terminated, waiting, retries == retry else { return true }
            self.timer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// The wait before retry number `retry` is over.
    @inlinable
    func waitEnded(_ retry: Int) {
        guard let timer = lock.withLockUnchecked({ () -> (any Cancellable)?? in
            guard !terminated, waiting, retries == retry else { return nil }
            waiting = false
            defer { self.timer = nil }
            return .some(self.timer)
        }) else { return }
        timer?.cancel()
        subscribeLoop()
    }

    /// Sends `completion` downstream and lets go of everything.
    @inlinable
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (Box<Downstream>?, (any Cancellable)?, Configuration?)? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                downstream = nil
                timer = nil
                configuration = nil
                upstream = nil
            }
            return (downstream, timer, configuration)
        }
        guard let (downstream, timer, _) = taken else { return }
        timer?.cancel()
        downstream?.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        let upstream = lock.withLockUnchecked { () -> (any Subscription)? in
            guard !terminated else { return nil }
            self.demand += demand
            return self.upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked {
            () -> ((any Subscription)?, (any Cancellable)?, Box<Downstream>?, Configuration?)? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                upstream = nil
                timer = nil
                downstream = nil
                configuration = nil
            }
            return (upstream, timer, downstream, configuration)
        }
        guard let (upstream, timer, _, _) = taken else { return }
        timer?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "RetryWhen" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(self, children: ["downstream": downstream?.value as Any, "retries": retries, "demand": demand])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
