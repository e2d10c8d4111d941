import Synchronization

/// A subject that broadcasts each value to the subscribers it has when the value is sent.
///
/// It keeps no value: a subscriber with no outstanding demand misses the value, and a late
/// subscriber sees only what is sent after it subscribes. After a completion, `send` does
/// nothing and new subscribers receive the completion at once.
///
/// Deliveries to one subscriber never overlap: a value sent from another thread, or from inside
/// that subscriber's own `receive(_:)`, is queued and delivered, in order, by whichever call is
/// already delivering (see Docs/MigratingFromCombine.md).
///
/// ```swift
/// let taps = PassthroughSubject<String, Never>()
/// let cancellable = taps.sink { print("tapped", $0) }
/// taps.send("OK")            // "tapped OK"
/// taps.send(completion: .finished)
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    let lock = Mutex<Void>(())
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var conduits: ContiguousArray<SubjectConduitEntry<Output, Failure>> = []
    @usableFromInline
    @exclusivity(unchecked)
    var completion: Subscribers.Completion<Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var upstreamSubscriptions: [any Subscription] = []
    @usableFromInline
    @exclusivity(unchecked)
    var hasDownstreamDemand = false

    /// Makes a subject with no subscribers.
    ///
    /// ```swift
    /// let events = PassthroughSubject<Int, Never>()
    /// ```
    @inlinable
    public init() {}

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    /// Attaches `subscriber`; after a completion it receives the completion at once.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit(downstream: subscriber, parent: self)
        let finished = lock.withLockUnchecked { () -> Subscribers.Completion<Failure>? in
            if let completion = self.completion { return completion }
            conduits.append(SubjectConduitEntry(conduit))
            return nil
        }
        if let completion = finished {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        } else {
            conduit.start()
        }
    }

    /// Sends `value` to every subscriber that has outstanding demand.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        let conduits = lock.withLockUnchecked { () -> ContiguousArray<SubjectConduitEntry<Output, Failure>>? in
            completion == nil ? self.conduits : nil
        }
        guard let conduits else { return }
        for conduit in conduits {
            conduit.offer(value)
        }
    }

    /// Sends `completion` to every subscriber; the subject sends nothing after it.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
    /// ```
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        let taken = lock.withLockUnchecked {
            () -> (ContiguousArray<SubjectConduitEntry<Output, Failure>>, [any Subscription])? in
            guard self.completion == nil else { return nil }
            self.completion = completion
            defer {
                conduits = []
                upstreamSubscriptions = []
            }
            return (conduits, upstreamSubscriptions)
        }
        guard let (conduits, _) = taken else { return }
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    /// Keeps `subscription` and asks it for unlimited values once any subscriber has demand.
    @inlinable
    public func send(subscription: any Subscription) {
        let request = lock.withLockUnchecked { () -> Bool in
            upstreamSubscriptions.append(subscription)
            return hasDownstreamDemand
        }
        if request {
            subscription.request(.unlimited)
        }
    }
}

extension PassthroughSubject: SubjectConduitParent {
    @inlinable
    func conduitReceivedDemand() {
        let subscriptions = lock.withLockUnchecked { () -> [any Subscription] in
            guard !hasDownstreamDemand else { return [] }
            hasDownstreamDemand = true
            return upstreamSubscriptions
        }
        for subscription in subscriptions {
            subscription.request(.unlimited)
        }
    }

    @inlinable
    func remove(_ conduit: AnyObject) {
        lock.withLockUnchecked {
            conduits.removeAll { $0.conduit === conduit }
        }
    }
}
