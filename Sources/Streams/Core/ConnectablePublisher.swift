/// A publisher that does not subscribe upstream until you call ``connect()``.
///
/// ```swift
/// let shared = [1, 2, 3].publisher.multicast { PassthroughSubject<Int, Never>() }
/// let first = shared.sink { print("A", $0) }
/// let second = shared.sink { print("B", $0) }
/// let connection = shared.connect()   // now both see 1, 2, 3
/// ```
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Subscribes upstream; cancel the result to disconnect.
    func connect() -> any Cancellable
}
