import Synchronization

/// A subject that holds a current value and gives it to each new subscriber.
///
/// A subscriber receives the current value on its first request, then every later value. A
/// value that arrives while a subscriber has no demand is kept for it (only the latest) and sent
/// on its next request. Setting ``value`` sends it; after a completion, `send(_:)` no longer
/// changes ``value`` but assigning ``value`` does.
///
/// ```swift
/// let userName = CurrentValueSubject<String, Never>("")
/// let cancellable = userName.sink { print("name:", $0) }   // name:
/// userName.value = "alice"                                // name: alice
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    @usableFromInline
    let lock = Mutex<Void>(())
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var currentValue: Output
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

    /// Makes a subject holding `value`.
    ///
    /// ```swift
    /// let count = CurrentValueSubject<Int, Never>(0)
    /// ```
    @inlinable
    public init(_ value: Output) {
        currentValue = value
    }

    deinit {
        for subscription in upstreamSubscriptions {
            subscription.cancel()
        }
    }

    /// The current value. Setting it sends the new value to the subscribers (unless the subject
    /// has completed, in which case it only changes the value).
    ///
    /// ```swift
    /// subject.value += 1
    /// ```
    @inlinable
    public var value: Output {
        get { lock.withLockUnchecked { currentValue } }
        set { update(newValue, evenAfterCompletion: true) }
    }

    /// Attaches `subscriber`; it receives the current value on its first request, or, after a
    /// completion, just the completion.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = lock.withLockUnchecked { () -> SubjectConduit<S>? in
            guard completion == nil else { return nil }
            let conduit = SubjectConduit(downstream: subscriber, parent: self, buffered: currentValue)
            conduits.append(SubjectConduitEntry(conduit))
            return conduit
        }
        if let conduit {
            conduit.start()
        } else if let completion = lock.withLockUnchecked({ completion }) {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        }
    }

    /// Makes `value` the current value and sends it to every subscriber; does nothing after a
    /// completion.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        update(value, evenAfterCompletion: false)
    }

    /// Stores `value` and, unless completed, offers it to every subscriber.
    @inlinable
    func update(_ value: Output, evenAfterCompletion: Bool) {
        let conduits = lock.withLockUnchecked { () -> ContiguousArray<SubjectConduitEntry<Output, Failure>>? in
            guard completion == nil else {
                if evenAfterCompletion { currentValue = value }
                return nil
            }
            currentValue = value
            return self.conduits
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

extension CurrentValueSubject: SubjectConduitParent {
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
