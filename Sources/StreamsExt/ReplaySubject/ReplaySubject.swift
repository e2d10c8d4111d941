import Streams

/// A subject that keeps the latest `bufferSize` values it was sent and replays them to each new
/// subscriber, followed by its completion once it has completed.
///
/// Each subscriber receives values only as it asks for them. Until it asks, the values sent to
/// it wait in a queue of its own that keeps, like the subject, the latest `bufferSize` of them
/// (older ones are dropped): a subscriber that is behind never gets less than a new subscriber
/// would. The completion (CombineExt's rule): before the subscriber's first request it waits
/// behind the values kept for it, and that request delivers those it covers, then the
/// completion; once the subscriber has requested, the completion is delivered when it comes,
/// after the values whose demand has been taken, and the values kept for later demand are
/// dropped. With `bufferSize` zero the subject replays nothing and keeps nothing for a
/// subscriber that has not asked, as a `PassthroughSubject`; with `Int.max` it keeps every value
/// (memory grows with each one).
///
/// Deliveries to one subscriber never overlap, and no lock is held while a subscriber runs: a
/// value sent from inside a subscriber's `receive(_:)`, or from another thread while a value is
/// being delivered, is queued and delivered in order by the delivery under way. A subscription
/// keeps its subject alive until it completes or is cancelled; a cancelled subscription is
/// forgotten at once. Sending costs O(1) per subscriber.
///
/// ```swift
/// let prices = ReplaySubject<Int, Never>(bufferSize: 2)
/// prices.send(1)
/// prices.send(2)
/// prices.send(3)
/// let cancellable = prices.sink { print($0) }   // 2, 3
/// prices.send(4)                                // 4
/// ```
public final class ReplaySubject<Output, Failure: Error>: Subject, Sendable {
    /// How many values the subject keeps for new subscribers.
    public let bufferSize: Int

    @usableFromInline
    let state: LockedState<ReplaySubjectStateMachine<Output, Failure>>

    /// Makes a subject that replays the latest `bufferSize` values to each new subscriber.
    ///
    /// `bufferSize` must be zero or more: zero replays nothing, `Int.max` replays everything.
    ///
    /// ```swift
    /// let latest = ReplaySubject<String, Never>(bufferSize: 1)
    /// ```
    public init(bufferSize: Int) {
        precondition(
            bufferSize >= 0, "ReplaySubject: bufferSize must be zero or more (it was \(bufferSize))")
        self.bufferSize = bufferSize
        state = LockedState(ReplaySubjectStateMachine(bufferSize: bufferSize))
    }

    deinit {
        for subscription in state.withLock({ $0.upstreams.removeAll() }) {
            subscription.cancel()
        }
    }

    /// Attaches `subscriber`: it receives the kept values as it asks for them, then the values
    /// sent from now on, and the completion.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        var subscription: ReplaySubjectSubscription<S>?
        state.withLock { state in
            state.subscriberArrived { attachment in
                let made = ReplaySubjectSubscription(downstream: subscriber, subject: self, attachment: attachment)
                subscription = made
                return ReplaySubjectEntry(made)
            }
        }
        subscription?.start()
    }

    /// Keeps `value` for new subscribers and offers it to every subscriber.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        switch state.withLock({ $0.send(value) }) {
        case .none:
            return
        case .offer(let subscriptions):
            for subscription in subscriptions {
                subscription.offer(value)
            }
        }
    }

    /// Completes the subject: each subscriber receives `completion` after the values it has
    /// asked for (one that has not requested yet: after the values its first request covers),
    /// and so does each later subscriber, after the replayed values its first request covers.
    /// The values still waiting for demand are dropped. Later values are ignored.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
    /// ```
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        switch state.withLock({ $0.finish(completion) }) {
        case .none:
            return
        case .finish(let subscriptions):
            for subscription in subscriptions {
                subscription.finish(completion)
            }
        }
    }

    /// Keeps `subscription` and asks it for unlimited values at once: the subject keeps what it
    /// is sent. The subject cancels the subscriptions it keeps when it goes away.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.subscribe(subject)   // calls send(subscription:)
    /// ```
    public func send(subscription: any Subscription) {
        _ = keep(upstream: subscription)
    }

    /// Forgets the subscription kept under `key`; it is released outside the lock.
    @usableFromInline
    func remove(_ key: Int) {
        let removed = state.withLock { $0.remove(key) }
        withExtendedLifetime(removed) {}
    }
}

extension ReplaySubject: UpstreamKeepingSubject {
    @usableFromInline
    package func keep(upstream subscription: any Subscription) -> Int? {
        let key = state.withLock { $0.upstreams.append(subscription) }
        subscription.request(.unlimited)
        return key
    }

    @usableFromInline
    package func forget(upstream key: Int) {
        let removed = state.withLock { $0.upstreams.remove(key) }
        withExtendedLifetime(removed) {}
    }
}
