import Streams

/// A subject that only takes values: it cannot be sent a completion, so it never fails and
/// finishes only when it goes away (its subscribers then receive `.finished`).
///
/// ```swift
/// let taps = PassthroughRelay<Void>()
/// let cancellable = taps.sink { print("tap") }
/// taps.accept()   // tap
/// ```
public protocol Relay: Publisher where Failure == Never {
    /// Sends `value` to the relay's subscribers.
    ///
    /// ```swift
    /// relay.accept(42)
    /// ```
    func accept(_ value: Output)

    /// Attaches `publisher` to the relay: its values are accepted, its completion is ignored
    /// (the relay stays open). Cancel the result to detach it.
    ///
    /// ```swift
    /// let attachment = relay.subscribe(Timer.publish(every: 1, on: .main, in: .common).autoconnect())
    /// ```
    func subscribe<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Output, P.Failure == Never

    /// Attaches this relay to `relay`: `relay` accepts this one's values. A requirement (with a
    /// default), so that generic code over two relays picks it over the publisher-taking one.
    ///
    /// ```swift
    /// let link = input.subscribe(output)   // output accepts what input accepts
    /// ```
    func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output
}

extension Relay where Output == Void {
    /// Sends `()` to the relay's subscribers.
    ///
    /// ```swift
    /// let refresh = PassthroughRelay<Void>()
    /// refresh.accept()
    /// ```
    public func accept() {
        accept(())
    }
}

extension Relay {
    /// Attaches this relay to `relay`: `relay` accepts this one's values (the value a
    /// `CurrentValueRelay` holds arrives first). Cancel the result to detach them.
    ///
    /// Between two relays, `source.subscribe(destination)` reads as it does for any publisher
    /// and subscriber: the values flow from `source` to `destination`.
    ///
    /// ```swift
    /// let input = PassthroughRelay<String>()
    /// let output = PassthroughRelay<String>()
    /// let link = input.subscribe(output)
    /// input.accept("a")   // output sends "a"
    /// ```
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        // Erased, so that the publisher-taking requirement is the one chosen.
        relay.subscribe(eraseToAnyPublisher())
    }
}

extension Publisher where Failure == Never {
    /// Attaches this publisher to `relay`: the relay accepts its values and ignores its
    /// completion. Cancel the result to detach it.
    ///
    /// ```swift
    /// let attachment = [1, 2, 3].publisher.subscribe(relay)   // relay sends 1, 2, 3 and stays open
    /// ```
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        relay.subscribe(self)
    }
}
