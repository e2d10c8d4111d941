extension Publisher {
    /// Passes on every value; if upstream finishes without sending any, sends `output` first.
    ///
    /// A failure is passed on as it is.
    ///
    /// ```swift
    /// let results = search(query).replaceEmpty(with: [])
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that sends a value of its own when its upstream finishes empty.
    ///
    /// ```swift
    /// let results = Publishers.ReplaceEmpty(upstream: search(query), output: [])
    /// ```
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream

        /// The value sent when the upstream finishes without one.
        public let output: Upstream.Output

        /// Makes a publisher that sends `output` if `upstream` finishes empty.
        ///
        /// ```swift
        /// let results = Publishers.ReplaceEmpty(upstream: search(query), output: [])
        /// ```
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`; the replacement value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptySubscription(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

/// The subscription of ``Publishers/ReplaceEmpty``. Demand passes through; as long as no value
/// has arrived, every request is still outstanding, so the replacement can go as soon as there
/// has been one.
@usableFromInline
final class ReplaceEmptySubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let replacement: Downstream.Input
    /// Touched only by upstream's calls, which never overlap.
    @usableFromInline
    @exclusivity(unchecked)
    var sawValue = false

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var requested = false
    /// Upstream finished empty before any request: the replacement waits for one.
    @usableFromInline
    @exclusivity(unchecked)
    var replacementWaiting = false

    @inlinable
    init(downstream: Downstream, replacement: Downstream.Input) {
        self.downstream = Box(downstream)
        self.replacement = replacement
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
        downstream.value.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        // As in Combine, a value before the subscription is ignored: the downstream has none yet.
        guard
            let downstream = lock.withLockUnchecked({ () -> Box<Downstream>? in
                guard case .subscribed = status else { return nil }
                return downstream
            })
        else { return .none }
        sawValue = true
        return downstream.value.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let (downstream, sendReplacement) = lock.withLockUnchecked { () -> (Box<Downstream>?, Bool) in
            guard case .subscribed = status else { return (nil, false) }
            status = .terminal
            let finished = if case .finished = completion { true } else { false }
            let empty = finished && !sawValue
            guard !empty || requested else {
                replacementWaiting = true
                return (nil, false)
            }
            defer { self.downstream = nil }
            return (self.downstream, empty)
        }
        guard let downstream else { return }
        if sendReplacement {
            _ = downstream.value.receive(replacement)
        }
        downstream.value.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let (upstream, waiting) = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?) in
            requested = true
            guard replacementWaiting else { return (status, nil) }
            replacementWaiting = false
            defer { downstream = nil }
            return (.terminal, downstream)
        }
        if let waiting {
            _ = waiting.value.receive(replacement)
            waiting.value.receive(completion: .finished)
        }
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?) in
            // As in Combine, a cancel before the upstream subscription is a no-op.
            if case .awaitingSubscription = status { return (status, nil) }
            defer {
                status = .terminal
                replacementWaiting = false
                downstream = nil
            }
            return (status, downstream)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "ReplaceEmpty" }

    @usableFromInline
    var customMirror: Mirror {
        Mirror(self, children: [])
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
