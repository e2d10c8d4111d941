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
    let core: SubjectCore<Output, Failure>

    /// Makes a subject holding `value`.
    ///
    /// ```swift
    /// let count = CurrentValueSubject<Int, Never>(0)
    /// ```
    @inlinable
    public init(_ value: Output) {
        core = SubjectCore(current: value)
    }

    /// The current value. Setting it sends the new value to the subscribers (unless the subject
    /// has completed, in which case it only changes the value).
    ///
    /// ```swift
    /// subject.value += 1
    /// ```
    @inlinable
    public var value: Output {
        get { core.lock.withLockUnchecked { core.current! } }
        set { core.send(newValue, storing: true, evenAfterCompletion: true) }
    }

    /// Attaches `subscriber`; it receives the current value on its first request, or, after a
    /// completion, just the completion.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Makes `value` the current value and sends it to every subscriber; does nothing after a
    /// completion.
    ///
    /// ```swift
    /// subject.send(42)
    /// ```
    @inlinable
    public func send(_ value: Output) {
        core.send(value, storing: true, evenAfterCompletion: false)
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

    /// Keeps `subscription` and asks it for unlimited values once any subscriber has demand.
    ///
    /// ```swift
    /// let cancellable = Just(7).subscribe(subject)   // calls send(subscription:)
    /// ```
    @inlinable
    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }
}
