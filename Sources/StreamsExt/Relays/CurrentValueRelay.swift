import Streams

/// A relay that holds a value and sends it to each new subscriber, then every value it accepts,
/// as a `CurrentValueSubject` that cannot complete. When it goes away, its subscribers receive
/// `.finished`.
///
/// Subscribers may keep their subscription after the relay is released: they are not what keeps
/// it alive, and that is how the relay's end reaches them.
///
/// ```swift
/// let name = CurrentValueRelay("Ada")
/// let cancellable = name.sink { print($0) }   // Ada
/// name.accept("Grace")                        // Grace
/// print(name.value)                           // Grace
/// ```
public final class CurrentValueRelay<Output>: Relay, Sendable {
    /// The relay's failure type: it cannot fail.
    public typealias Failure = Never

    private let storage: CurrentValueSubject<Output, Never>

    /// The value the relay holds: the last one accepted, or the initial one. Set it with
    /// ``accept(_:)``.
    ///
    /// ```swift
    /// let count = CurrentValueRelay(0)
    /// count.accept(count.value + 1)
    /// ```
    public var value: Output { storage.value }

    /// Makes a relay holding `value`.
    ///
    /// ```swift
    /// let isOn = CurrentValueRelay(false)
    /// ```
    public init(_ value: Output) {
        storage = CurrentValueSubject(value)
    }

    deinit {
        storage.send(completion: .finished)
    }

    /// Attaches `subscriber`; it receives the current value, then the ones accepted from now on.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        storage.receive(subscriber: subscriber)
    }

    /// Makes `value` the current one and sends it to the subscribers.
    ///
    /// ```swift
    /// relay.accept("updated")
    /// ```
    public func accept(_ value: Output) {
        storage.send(value)
    }

    /// Accepts `publisher`'s values until the result is cancelled; its completion is ignored.
    /// As a `CurrentValueSubject` attached with `subscribe(_:)`, the relay asks `publisher` for
    /// all its values at once, so its value follows `publisher` even with no subscriber.
    ///
    /// ```swift
    /// let attachment = relay.subscribe(model.$title)   // relay follows the title
    /// ```
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never {
        publisher.subscribe(RelayInlet(storage))
    }

    /// Attaches this relay to `relay`, which accepts this one's current value and every value it
    /// accepts from now on.
    ///
    /// ```swift
    /// let link = settings.subscribe(mirror)   // mirror follows settings, starting with its value
    /// ```
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(eraseToAnyPublisher())
    }
}
