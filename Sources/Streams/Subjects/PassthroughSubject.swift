/// A subject that broadcasts each value to the subscribers it has when the value is sent.
///
/// It keeps no value: a subscriber with no outstanding demand misses the value, and a late
/// subscriber sees only what is sent after it subscribes. After a completion, `send` does
/// nothing and new subscribers receive the completion at once.
///
/// Deliveries to one subscriber never overlap: a value sent from inside that subscriber's own
/// `receive(_:)` is queued and delivered, in order, by the call already delivering; one sent
/// from another thread waits for its turn, unless the thread delivering waits in turn for the
/// sender (subscribers that send into each other's subjects from two threads): then the value
/// is queued for that thread, so waits never deadlock (see Docs/MigratingFromCombine.md). A
/// subscription keeps its subject alive until it completes or is cancelled.
///
/// ```swift
/// let taps = PassthroughSubject<String, Never>()
/// let cancellable = taps.sink { print("tapped", $0) }
/// taps.send("OK")            // "tapped OK"
/// taps.send(completion: .finished)
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline
    let core: SubjectCore<Output, Failure>

    /// Makes a subject with no subscribers.
    ///
    /// ```swift
    /// let events = PassthroughSubject<Int, Never>()
    /// ```
    @inlinable
    public init() {
        core = SubjectCore(current: nil, kind: .passthrough)
    }

    /// A subject whose subscriptions behave as `kind`'s (``ObservableObjectPublisher``'s).
    @inlinable
    init(kind: SubjectKind) {
        core = SubjectCore(current: nil, kind: kind)
    }

    /// Attaches `subscriber`; after a completion it receives the completion at once.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, to: self)
    }

    /// Sends `value` to every subscriber that has outstanding demand.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        core.send(value, storing: false, evenAfterCompletion: false)
    }

    /// Sends `completion` to every subscriber; the subject sends nothing after it.
    ///
    /// ```swift
    /// subject.send(completion: .finished)
    /// ```
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps `subscription` and asks it for unlimited values once any subscriber has asked for
    /// values. The subject cancels the subscriptions it keeps when it goes away.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.subscribe(subject)   // calls send(subscription:)
    /// ```
    @inlinable
    public func send(subscription: any Subscription) {
        core.keep(upstream: subscription)
    }
}
