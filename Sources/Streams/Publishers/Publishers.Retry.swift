
extension Publisher {
    /// Subscribes to this publisher again when it fails, up to `retries` more times; a negative
    /// count retries forever.
    ///
    /// Every failure is retried at once. The downstream keeps its one subscription and its
    /// outstanding demand; values already delivered stay delivered. For selective retries that
    /// wait between attempts, use `retry(_:when:backoff:scheduler:)`.
    ///
    /// ```swift
    /// let data = Deferred { fetch() }.retry(3)   // at most 4 attempts
    /// ```
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries < 0 ? nil : retries)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream again each time it fails, a number of times
    /// or forever.
    ///
    /// Resubscription is a loop, not a recursion: an upstream that fails synchronously any
    /// number of times does not grow the stack.
    ///
    /// ```swift
    /// let data = Publishers.Retry(upstream: Deferred { fetch() }, retries: 3)
    /// ```
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to again.
        public let upstream: Upstream

        /// How many times to resubscribe; `nil` for no limit.
        public let retries: Int?

        /// Makes a publisher that retries `upstream` up to `retries` times (`nil`: forever).
        ///
        /// ```swift
        /// let data = Publishers.Retry(upstream: Deferred { fetch() }, retries: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber`; it sees one subscription however many attempts are made.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            RetrySubscription(upstream: upstream, retries: retries, downstream: subscriber).subscribeLoop()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

/// The subscription of ``Publishers/Retry``.
///
/// Each attempt has a generation number, so events from an abandoned attempt are ignored. A
/// failure that arrives while `subscribe` is still running (a synchronous upstream) only sets
/// `resubscribePending`; the loop in ``subscribeLoop()`` then subscribes again.
@usableFromInline
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscription, AttemptParent,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let upstreamPublisher: Upstream
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var remaining: Int?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var upstream: (any Subscription)?
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
    init(upstream: Upstream, retries: Int?, downstream: Downstream) {
        upstreamPublisher = upstream
        remaining = retries
        self.downstream = downstream
    }

    /// Subscribes upstream, again for as long as attempts fail while subscribing.
    @inlinable
    func subscribeLoop() {
        while true {
            guard let generation = lock.withLockUnchecked({ () -> Int? in
                guard !terminated else { return nil }
                generation += 1
                subscribing = true
                return generation
            }) else { return }
            upstreamPublisher.receive(subscriber: AttemptLink(parent: self, generation: generation, name: "Retry"))
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
            downstream.receive(subscription: self)
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    /// What to do with a new upstream subscription once the lock is released.
    @usableFromInline
    enum SubscriptionAction {
        case cancel
        case handOver(Downstream)
        case request(Subscribers.Demand)
    }

    @inlinable
    func receive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        let downstream = lock.withLockUnchecked { () -> Downstream? in
            guard !terminated, generation == self.generation else { return nil }
            demand -= 1
            return self.downstream
        }
        guard let downstream else { return .none }
        let additional = downstream.receive(input)
        if additional > 0 {
            lock.withLockUnchecked { demand += additional }
        }
        return additional
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        let action = lock.withLockUnchecked { () -> CompletionAction in
            guard !terminated, generation == self.generation else { return .nothing }
            upstream = nil
            if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
                remaining = remaining.map { $0 - 1 }
                if subscribing {
                    resubscribePending = true
                    return .nothing
                }
                return .resubscribe
            }
            terminated = true
            defer { downstream = nil }
            return .complete(downstream)
        }
        switch action {
        case .nothing: return
        case .resubscribe: subscribeLoop()
        case .complete(let downstream): downstream?.receive(completion: completion)
        }
    }

    /// What to do with an upstream completion once the lock is released.
    @usableFromInline
    enum CompletionAction {
        case nothing
        case resubscribe
        case complete(Downstream?)
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
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, Downstream?) in
            guard !terminated else { return (nil, nil) }
            terminated = true
            defer {
                upstream = nil
                downstream = nil
            }
            return (upstream, downstream)
        }
        taken.0?.cancel()
    }

    @usableFromInline
    var description: String { "Retry" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(self, children: ["downstream": downstream as Any, "remaining": remaining as Any])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
