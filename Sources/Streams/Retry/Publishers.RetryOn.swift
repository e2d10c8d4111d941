
extension Publisher {
    /// Retries when the user says so: on a failure, subscribes to the publisher `trigger` makes
    /// from the error, and subscribes to the upstream again when that publisher sends a value.
    /// If it completes (or fails) without a value, the original error is delivered.
    ///
    /// This is the "Try again" button of an error screen; for automatic retries with backoff,
    /// use `retry(_:when:backoff:scheduler:)`.
    ///
    /// ```swift
    /// let profile = Deferred { api.fetchProfile() }
    ///     .retry(on: { error in
    ///         errorView.show(error)          // shows a "Try again" button
    ///         return errorView.tryAgainTaps.first()
    ///     })
    /// ```
    @inlinable
    public func retry<Trigger: Publisher>(on trigger: @escaping (Failure) -> Trigger) -> Publishers.RetryOn<Self, Trigger> {
        Publishers.RetryOn(upstream: self, trigger: trigger)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream again each time the trigger made from its
    /// failure sends a value.
    ///
    /// ```swift
    /// let retried = Publishers.RetryOn(upstream: request) { _ in tryAgainTaps.first() }
    /// ```
    public struct RetryOn<Upstream: Publisher, Trigger: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered when the trigger ends without a value.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to again.
        public let upstream: Upstream
        /// Makes, from a failure, the publisher whose first value means "try again".
        public let trigger: (Upstream.Failure) -> Trigger

        /// Makes a publisher that retries `upstream` whenever `trigger(error)` sends a value.
        ///
        /// ```swift
        /// let retried = Publishers.RetryOn(upstream: request, trigger: { _ in tryAgainTaps.first() })
        /// ```
        @inlinable
        public init(upstream: Upstream, trigger: @escaping (Upstream.Failure) -> Trigger) {
            self.upstream = upstream
            self.trigger = trigger
        }

        /// Attaches `subscriber`; it sees one subscription however many attempts are made.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            RetryOnSubscription(retryOn: self, downstream: subscriber).subscribeLoop()
        }
    }
}

/// The subscription of `retry(on:)`. Attempts have generation numbers, as in `RetryWhen`; a
/// trigger that fires while the upstream is being subscribed (a synchronous trigger) only marks
/// a resubscription, which the loop performs.
@usableFromInline
final class RetryOnSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: Subscription,
    AttemptParent, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var retryOn: Publishers.RetryOn<Upstream, Trigger>?
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var triggerSubscription: (any Subscription)?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var generation = 0
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
    init(retryOn: Publishers.RetryOn<Upstream, Trigger>, downstream: Downstream) {
        self.retryOn = retryOn
        self.downstream = Box(downstream)
    }

    /// Subscribes upstream, again for as long as a trigger fires while subscribing.
    @inlinable
    func subscribeLoop() {
        while true {
            guard let (generation, upstreamPublisher) = lock.withLockUnchecked({ () -> (Int, Upstream)? in
                guard !terminated, let retryOn else { return nil }
                if subscribing {
                    resubscribePending = true
                    return nil
                }
                generation += 1
                subscribing = true
                return (generation, retryOn.upstream)
            }) else { return }
            upstreamPublisher.receive(subscriber: AttemptLink(parent: self, generation: generation, name: "RetryOn"))
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
        let handOver = lock.withLockUnchecked { () -> (Box<Downstream>?, Subscribers.Demand)? in
            guard !terminated, generation == self.generation, upstream == nil else { return nil }
            upstream = subscription
            if !sentSubscription {
                sentSubscription = true
                return (downstream, .none)
            }
            return (nil, demand)
        }
        guard let (downstream, demand) = handOver else {
            subscription.cancel()
            return
        }
        if let downstream {
            downstream.value.receive(subscription: self)
        } else if demand > 0 {
            subscription.request(demand)
        }
    }

    @inlinable
    func receive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        guard let downstream = lock.withLockUnchecked({ () -> Box<Downstream>? in
            guard !terminated, generation == self.generation else { return nil }
            demand -= 1
            return self.downstream
        }) else { return .none }
        let additional = downstream.value.receive(input)
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        guard let retryOn = lock.withLockUnchecked({ () -> Publishers.RetryOn<Upstream, Trigger>? in
            guard !terminated, generation == self.generation else { return nil }
            upstream = nil
            return self.retryOn
        }) else { return }
        guard case .failure(let error) = completion else {
            finish(completion)
            return
        }
        retryOn.trigger(error).receive(subscriber: TriggerLink(parent: self, generation: generation, error: error))
    }

    @inlinable
    func receiveTrigger(subscription: any Subscription, generation: Int) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard !terminated, generation == self.generation, triggerSubscription == nil else { return false }
            triggerSubscription = subscription
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    /// The trigger for attempt `generation` fired: try again.
    @inlinable
    func triggerFired(generation: Int) {
        guard let trigger = lock.withLockUnchecked({ () -> (any Subscription)?? in
            guard !terminated, generation == self.generation else { return nil }
            // The trigger's own completion, which may follow at once, must not end the stream.
            self.generation += 1
            defer { triggerSubscription = nil }
            return .some(triggerSubscription)
        }) else { return }
        trigger?.cancel()
        subscribeLoop()
    }

    /// The trigger for attempt `generation` ended without firing: give up with `error`.
    @inlinable
    func triggerEnded(generation: Int, error: Downstream.Failure) {
        guard lock.withLockUnchecked({ !terminated && generation == self.generation }) else { return }
        finish(.failure(error))
    }

    /// Sends `completion` downstream and lets go of everything.
    @inlinable
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (Box<Downstream>?, Any)? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                downstream = nil
                retryOn = nil
                triggerSubscription = nil
                upstream = nil
            }
            return (downstream, (retryOn, triggerSubscription))
        }
        taken?.0?.value.receive(completion: completion)
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
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, (any Subscription)?, Any)? in
            guard !terminated else { return nil }
            terminated = true
            defer {
                upstream = nil
                triggerSubscription = nil
                downstream = nil
                retryOn = nil
            }
            return (upstream, triggerSubscription, (downstream, retryOn))
        }
        guard let (upstream, trigger, _) = taken else { return }
        trigger?.cancel()
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "RetryOn" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream?.value as Any, "demand": demand]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Subscribes to the trigger made for one failure on behalf of the parent.
    @usableFromInline
    struct TriggerLink: Subscriber, CustomStringConvertible {
        @usableFromInline
        let parent: RetryOnSubscription
        @usableFromInline
        let generation: Int
        @usableFromInline
        let error: Downstream.Failure
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(parent: RetryOnSubscription, generation: Int, error: Downstream.Failure) {
            self.parent = parent
            self.generation = generation
            self.error = error
        }

        @inlinable
        func receive(subscription: any Subscription) {
            parent.receiveTrigger(subscription: subscription, generation: generation)
        }

        @inlinable
        func receive(_ input: Trigger.Output) -> Subscribers.Demand {
            parent.triggerFired(generation: generation)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Trigger.Failure>) {
            parent.triggerEnded(generation: generation, error: error)
        }

        @usableFromInline
        var description: String { "RetryOn" }
    }
}
