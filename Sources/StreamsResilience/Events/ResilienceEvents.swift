import Streams

/// One observer for what every resilience strategy does, so that logging and metrics are wired
/// in one place: hand the same value to the breakers, limiters, timeouts, retries and hedges of
/// a pipeline.
///
/// The observer is called synchronously, on the thread where the event happens, outside every
/// lock; it must be quick and thread-safe. With ``none`` (the default everywhere) an event costs
/// one check of an optional and is never built.
///
/// ```swift
/// let events = ResilienceEvents { event in logger.info("\(event)") }
/// let breaker = CircuitBreaker(events: events)
/// let user = api.user(id)
///     .attemptTimeout(.seconds(10), scheduler: DispatchQueue.main, events: events)
///     .circuitBreaker(breaker, scheduler: DispatchQueue.main)
///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, events: events)
/// ```
public struct ResilienceEvents: Sendable {
    @usableFromInline
    let observer: (@Sendable (ResilienceEvent) -> Void)?

    /// No observer: events are not built.
    ///
    /// ```swift
    /// let quiet = CircuitBreaker(events: .none)
    /// ```
    public static let none = ResilienceEvents(observer: nil)

    /// Tells `observer` every event.
    ///
    /// ```swift
    /// let events = ResilienceEvents { print($0) }
    /// ```
    public init(_ observer: @escaping @Sendable (ResilienceEvent) -> Void) {
        self.observer = observer
    }

    init(observer: (@Sendable (ResilienceEvent) -> Void)?) {
        self.observer = observer
    }

    /// Whether an observer listens: without one, no event is built.
    ///
    /// ```swift
    /// ResilienceEvents.none.isObserved   // false
    /// ```
    @inlinable
    public var isObserved: Bool { observer != nil }

    /// Tells the observer the event `make` builds; builds nothing without an observer.
    @inlinable
    func emit(_ make: @autoclosure () -> ResilienceEvent) {
        if let observer { observer(make()) }
    }

    /// An `onRetry` for the selective retry that tells the observer each retry as
    /// ``ResilienceEvent/retryScheduled(retry:delay:error:)``. Passing the events as the retry's
    /// `events` tells the same and more (attempts, give-up); do not pass both.
    ///
    /// ```swift
    /// request.retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onRetry: events.onRetry())
    /// ```
    public func onRetry<Failure: Error>() -> (RetryAttempt<Failure>) -> Void {
        let observer = observer
        return { attempt in observer?(.retryScheduled(retry: attempt.retry, delay: attempt.delay, error: attempt.error)) }
    }
}
