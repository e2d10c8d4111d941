import Streams

/// The state of a ``ReplaySubject``: the values it replays, its subscriptions, its completion and
/// the upstream subscriptions it was given. A value with no lock and no callouts; each event
/// returns what the subject must do once its lock is released.
///
/// Phases:
/// - `active`: values are kept (the latest `bufferSize`) and offered to the subscriptions;
///   `finish` → `terminated`, handing the subscriptions the completion and letting them go.
/// - `terminated(completion)`: values are ignored; a new subscription receives the kept values
///   and then the completion.
///
/// The subscriptions are kept in a `KeyedList` beside the phase (so that adding or removing
/// one copies nothing): in the order they came, removed by key without shifting the others;
/// it is empty once terminated.
@usableFromInline
struct ReplaySubjectStateMachine<Output, Failure: Error> {
    @usableFromInline
    typealias Entry = ReplaySubjectEntry<Output, Failure>
    @usableFromInline
    typealias Entries = ContiguousArray<Entry>

    @usableFromInline
    enum Phase {
        case active
        case terminated(Subscribers.Completion<Failure>)
    }

    @usableFromInline
    var phase = Phase.active
    /// The subscriptions values are offered to.
    @usableFromInline
    var subscriptions = KeyedList<Entry>(placeholder: .removed)
    /// The values a new subscription replays, oldest first.
    @usableFromInline
    var buffer: ReplayBuffer<Output>
    /// The upstream subscriptions given by `send(subscription:)`, until they end.
    @usableFromInline
    var upstreams = KeyedList<any Subscription>(placeholder: Subscriptions.empty)

    @inlinable
    init(bufferSize: Int) {
        buffer = ReplayBuffer(limit: bufferSize)
    }

    /// What a new subscription starts from.
    @usableFromInline
    struct Attachment {
        /// The key to remove the subscription by.
        @usableFromInline
        let key: Int
        /// The values to replay, oldest first.
        @usableFromInline
        let replay: ReplayBuffer<Output>
        /// The completion to deliver after them, when the subject has completed.
        @usableFromInline
        let completion: Subscribers.Completion<Failure>?

        @inlinable
        init(key: Int, replay: ReplayBuffer<Output>, completion: Subscribers.Completion<Failure>?) {
            self.key = key
            self.replay = replay
            self.completion = completion
        }
    }

    /// A subscriber arrives: `makeEntry` makes its subscription from what it starts from; an
    /// active subject keeps the subscription's entry to offer later values to it.
    @inlinable
    mutating func subscriberArrived(_ makeEntry: (Attachment) -> Entry) {
        switch phase {
        case .active:
            let key = subscriptions.nextKey
            _ = subscriptions.append(makeEntry(Attachment(key: key, replay: buffer, completion: nil)))
        case .terminated(let completion):
            _ = makeEntry(Attachment(key: -1, replay: buffer, completion: completion))
        }
    }

    /// What `send(_:)` does.
    @usableFromInline
    enum SendAction {
        /// Offer the value to these subscriptions.
        case offer(Entries)
        /// Completed: ignore it.
        case none
    }

    @inlinable
    mutating func send(_ value: Output) -> SendAction {
        guard case .active = phase else { return .none }
        buffer.append(value)
        return .offer(subscriptions.elements)
    }

    /// What `send(completion:)` does.
    @usableFromInline
    enum FinishAction {
        /// Hand the completion to these subscriptions, which the subject no longer keeps.
        case finish(Entries)
        /// Completed already: ignore it.
        case none
    }

    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> FinishAction {
        guard case .active = phase else { return .none }
        phase = .terminated(completion)
        return .finish(subscriptions.removeAll())
    }

    /// The subscription under `key` was cancelled: its entry, to release outside the lock (nil
    /// once the subject has let go of its subscriptions).
    @inlinable
    mutating func remove(_ key: Int) -> Entry? {
        // A subscription made after the completion was never kept (its key is negative).
        guard key >= 0 else { return nil }
        return subscriptions.remove(key)
    }
}
