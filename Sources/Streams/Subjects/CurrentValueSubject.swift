/// A subject that holds a current value and gives it to each new subscriber.
///
/// A subscriber receives the current value on its first request, then every later value. A
/// subscriber that had no demand when a value was sent misses it, and receives the subject's
/// current value on its next request. Setting ``value`` sends it; after a completion,
/// `send(_:)` no longer changes ``value`` but assigning ``value`` does.
///
/// ```swift
/// let userName = CurrentValueSubject<String, Never>("")
/// let cancellable = userName.sink { print("name:", $0) }   // name:
/// userName.value = "alice"                                // name: alice
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline
    let core: SubjectCore<Output, Failure>

    /// Makes a subject holding `value`.
    ///
    /// ```swift
    /// let count = CurrentValueSubject<Int, Never>(0)
    /// ```
    @inlinable
    public init(_ value: Output) {
        core = SubjectCore(current: value, kind: .currentValue)
    }

    /// The current value. Setting it sends the new value to the subscribers (unless the subject
    /// has completed, in which case it only changes the value).
    ///
    /// ```swift
    /// subject.value += 1
    /// ```
    @inlinable
    public var value: Output {
        get { core.currentValue }
        set { core.send(newValue, storing: true, evenAfterCompletion: true) }
    }

    /// Attaches `subscriber`; it receives the current value on its first request, or, after a
    /// completion, just the completion.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber, to: self)
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

    /// Keeps `subscription` and asks it for unlimited values at once, so the subject's value
    /// follows the upstream even with no subscriber. The subject cancels the subscriptions it
    /// keeps when it goes away.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.subscribe(subject)   // subject.value == 3
    /// ```
    @inlinable
    public func send(subscription: any Subscription) {
        core.keep(upstream: subscription)
    }
}
