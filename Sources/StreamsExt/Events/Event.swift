import Streams

/// One event of a publisher, as a value: a value, a failure or the end. What `materialize()`
/// sends and `dematerialize()` turns back into a stream.
///
/// ```swift
/// switch event {
/// case .value(let user): show(user)
/// case .failure(let error): report(error)
/// case .finished: done()
/// }
/// ```
public enum Event<Output, Failure: Error> {
    /// A value.
    case value(Output)
    /// The failure that ended the stream.
    case failure(Failure)
    /// The stream finished.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: Hashable where Output: Hashable, Failure: Hashable {}

extension Event: Sendable where Output: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(1)`, `failure(timedOut)` or `finished`.
    ///
    /// ```swift
    /// print(Event<Int, Never>.value(1))   // value(1)
    /// ```
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let error): "failure(\(error))"
        case .finished: "finished"
        }
    }
}

extension Event: EventConvertible {
    /// The event itself.
    ///
    /// ```swift
    /// let same = Event<Int, Never>.finished.event   // .finished
    /// ```
    public var event: Event<Output, Failure> { self }
}
