/// A publisher you can send values and a completion into from outside a pipeline.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send("hello")
/// subject.send(completion: .finished)
/// ```
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends `value` to the subscribers.
    func send(_ value: Output)

    /// Sends `completion` to the subscribers; the subject sends nothing after it.
    func send(completion: Subscribers.Completion<Failure>)

    /// Gives the subject an upstream subscription, for use when the subject subscribes to a
    /// publisher.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends the `Void` value: shorthand for `send(())`.
    ///
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// taps.send()
    /// ```
    @inlinable
    public func send() {
        send(())
    }
}
