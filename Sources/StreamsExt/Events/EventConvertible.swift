import Streams

/// A type that can be read as an ``Event``: what `dematerialize()`, `values()` and `failures()`
/// accept, so that a type of one's own can stand for events.
///
/// ```swift
/// struct Logged: EventConvertible {
///     var event: Event<String, URLError>
///     var time: Date
/// }
/// let lines = logged.dematerialize()   // AnyPublisher of the logged events' values
/// ```
public protocol EventConvertible {
    /// The type of the event's value.
    associatedtype Output
    /// The type of the event's failure.
    associatedtype Failure: Error

    /// This value as an event.
    var event: Event<Output, Failure> { get }
}
