// Stands for another library a Combine user already imports beside Combine (an Rx bridge, an
// app's own toolkit): it declares, at the top level, names that Streams' other products use.
// The namespace tests import it together with `Streams`; if `Streams` declared one of these
// names too, every use in the tests would be ambiguous and the tests would not compile.

/// An Rx-style event with one type parameter (StreamsExt's has two).
public enum Event<Element> {
    case next(Element)
    case error(any Error)
    case completed
}

/// A replaying subject of another library.
public final class ReplaySubject<Element> {
    public private(set) var buffer: [Element] = []
    public let bufferSize: Int
    public init(bufferSize: Int) { self.bufferSize = bufferSize }
    public func onNext(_ element: Element) {
        buffer.append(element)
        if buffer.count > bufferSize { buffer.removeFirst() }
    }
}

/// Relays of another library.
public final class PassthroughRelay<Element> {
    public init() {}
}

public final class CurrentValueRelay<Element> {
    public var value: Element
    public init(_ value: Element) { self.value = value }
}

/// A circuit breaker, a rate limiter and events of an app's own networking layer.
public final class CircuitBreaker {
    public private(set) var failures = 0
    public init() {}
    public func recordFailure() { failures += 1 }
}

public struct RateLimiter {
    public let permitsPerSecond: Int
    public init(permitsPerSecond: Int) { self.permitsPerSecond = permitsPerSecond }
}

public enum ResilienceEvent: Equatable {
    case opened, closed
}

/// An app's own error presentation.
public protocol PresentableError: Error {
    var title: String { get }
}

public enum ErrorOrigin: Equatable {
    case client, server
}

/// An app's own time line.
public protocol TimelineInstant {
    var secondsSinceStart: Double { get }
}
