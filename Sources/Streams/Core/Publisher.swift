/// A type that can deliver a sequence of values over time to one or more subscribers.
///
/// A publisher sends at most as many values as its subscriber has asked for, then at most one
/// completion: `.finished` or `.failure(Failure)`. Publishers are usually values that describe
/// a pipeline; nothing happens until a subscriber attaches.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }   // 10, 20, 30
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values this publisher sends.
    associatedtype Output

    /// The kind of error this publisher may fail with; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber` to this publisher.
    ///
    /// Implement this in your own publishers; call `subscribe(_:)` to attach a subscriber.
    ///
    /// ```swift
    /// struct Numbers: Publisher {
    ///     typealias Output = Int
    ///     typealias Failure = Never
    ///     func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    ///         [1, 2].publisher.receive(subscriber: subscriber)
    ///     }
    /// }
    /// ```
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher.
    ///
    /// ```swift
    /// Just(1).subscribe(Subscribers.Sink(receiveCompletion: { _ in }, receiveValue: { print($0) }))
    /// ```
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}
