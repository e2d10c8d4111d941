/// The publisher behind an ``ObservableObject``'s `objectWillChange`: it sends `()` before any
/// of the object's `@Published` properties changes. A subscriber receives as many signals as it
/// requested (Combine sends every signal once anything was requested); `request(.none)` does
/// nothing.
///
/// ```swift
/// let cancellable = model.objectWillChange.sink { print("model will change") }
/// ```
public final class ObservableObjectPublisher: Publisher, Sendable {
    /// Nothing but the fact of a change.
    public typealias Output = Void
    /// Never fails.
    public typealias Failure = Never

    @usableFromInline
    let subject = PassthroughSubject<Void, Never>(kind: .observableObject)

    /// Makes a publisher with no subscribers.
    ///
    /// ```swift
    /// let objectWillChange = ObservableObjectPublisher()
    /// ```
    public init() {}

    /// Attaches `subscriber`.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Tells the subscribers that the object is about to change.
    ///
    /// ```swift
    /// objectWillChange.send()
    /// ```
    public func send() {
        subject.send(())
    }
}
