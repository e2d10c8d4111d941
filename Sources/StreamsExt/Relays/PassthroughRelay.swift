import Streams

/// A relay that sends each value it accepts to its current subscribers, as a
/// `PassthroughSubject` that cannot complete. When it goes away, its subscribers receive
/// `.finished`.
///
/// Subscribers may keep their subscription after the relay is released: they are not what keeps
/// it alive, and that is how the relay's end reaches them.
///
/// ```swift
/// let events = PassthroughRelay<String>()
/// let cancellable = events.sink { print($0) }
/// events.accept("opened")   // opened
/// ```
public final class PassthroughRelay<Output>: Relay, Sendable {
    /// The relay's failure type: it cannot fail.
    public typealias Failure = Never

    private let storage = PassthroughSubject<Output, Never>()

    /// Makes a relay with no subscribers.
    ///
    /// ```swift
    /// let taps = PassthroughRelay<Void>()
    /// ```
    public init() {}

    deinit {
        storage.send(completion: .finished)
    }

    /// Attaches `subscriber`; it receives the values accepted from now on.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        storage.receive(subscriber: subscriber)
    }

    /// Sends `value` to the current subscribers (those with demand for it).
    ///
    /// ```swift
    /// relay.accept("hello")
    /// ```
    public func accept(_ value: Output) {
        storage.send(value)
    }

    /// Accepts `publisher`'s values until the result is cancelled; its completion is ignored.
    /// As a `PassthroughSubject` attached with `subscribe(_:)`, the relay asks `publisher` for
    /// values (all of them) only once one of its own subscribers has asked for values, so what a
    /// lazy publisher (a `CurrentValueRelay`, a sequence) has to send waits for that subscriber.
    ///
    /// ```swift
    /// let attachment = relay.subscribe(["a", "b"].publisher)   // relay sends "a", "b"
    /// ```
    public func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never {
        publisher.subscribe(RelayInlet(storage))
    }

    /// Attaches this relay to `relay`, which accepts this one's values from now on.
    ///
    /// ```swift
    /// let link = input.subscribe(output)   // values accepted by input reach output's subscribers
    /// ```
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(eraseToAnyPublisher())
    }
}
