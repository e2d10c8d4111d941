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

    /// Everything a subscriber would receive, when it is known without subscribing and does not
    /// depend on demand beyond a first request: `.success(value)` for one value and `.finished`,
    /// `.success(nil)` for `.finished` alone, `.failure(error)` for the failure alone; nil (the
    /// default) for any other publisher.
    ///
    /// An implementation detail, not for your own publishers: `flatMap`, `catch` and `sink`
    /// deliver these events themselves, in the order and with the demand subscribing would give
    /// them, instead of subscribing (which allocates a subscription, and for `sink` the sink).
    /// `Just`, `Empty` that completes immediately, `Fail`, `Optional.Publisher` and
    /// `Result.Publisher` implement it, and `SetFailureType` and `AnyPublisher` pass on the
    /// outcome of the publisher they wrap.
    ///
    /// ```swift
    /// Just(1)._immediateOutcome()          // .success(1)
    /// Fail<Int, URLError>(error: URLError(.timedOut))._immediateOutcome()   // .failure(…)
    /// ```
    func _immediateOutcome() -> Result<Output?, Failure>?

    /// Attaches what `sink(receiveCompletion:receiveValue:)` would, when that is known to take
    /// less than a ``Subscribers/Sink`` subscribed to this publisher, with the same events in the
    /// same order; nil (the default, unless `_immediateOutcome()` gives the outcome) when the
    /// sink must subscribe.
    ///
    /// An implementation detail, not for your own publishers: by default it delivers the events
    /// `_immediateOutcome()` gives and returns an empty ``AnyCancellable``. `catch` on an upstream
    /// whose outcome is a failure calls its handler, as the failure would at once on
    /// subscription, then delivers the recovery's events if they are known, or subscribes.
    ///
    /// ```swift
    /// let cancellable = Fail<Int, URLError>(error: URLError(.timedOut))
    ///     .catch { _ in Just(0) }
    ///     ._sinkDirectly(receiveCompletion: { _ in }, receiveValue: { print($0) })   // 0
    /// ```
    func _sinkDirectly(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable?
}

extension Publisher {
    /// Nil: the outcome is only known by subscribing.
    ///
    /// ```swift
    /// PassthroughSubject<Int, Never>()._immediateOutcome()   // nil
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Failure>? { nil }

    /// Delivers the events `_immediateOutcome()` gives and returns an empty cancellable, or
    /// returns nil when there is no such outcome.
    ///
    /// ```swift
    /// _ = Just(1)._sinkDirectly(receiveCompletion: { _ in }, receiveValue: { print($0) })   // 1
    /// ```
    @inlinable
    @inline(__always)
    public func _sinkDirectly(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable? {
        guard let outcome = _immediateOutcome() else { return nil }
        // A sink subscribed to such a publisher would ask for unlimited values and receive these
        // events before `sink` returns, then release its closures, leaving nothing to cancel.
        outcome.replay(value: receiveValue, completion: receiveCompletion)
        return AnyCancellable()
    }
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
