import Streams

/// One observer for what every resilience strategy does, so that logging and metrics are wired
/// in one place: hand the same value to the breakers, limiters, timeouts, retries and hedges of
/// a pipeline.
///
/// Each event comes with its ``ResilienceEventContext``: the operation (the pipeline's name or
/// registry key), the attempt it happened in and the call's request (its method and origin),
/// as far as they are known where it happened.
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
    /// The observer and what it is told for; nil when nobody listens and no report is kept.
    @usableFromInline
    let listener: ResilienceListener?

    /// No observer: events are not built.
    ///
    /// ```swift
    /// let quiet = CircuitBreaker(events: .none)
    /// ```
    public static let none = ResilienceEvents(listener: nil)

    /// Tells `observer` every event.
    ///
    /// ```swift
    /// let events = ResilienceEvents { print($0) }
    /// ```
    public init(_ observer: @escaping @Sendable (ResilienceEvent) -> Void) {
        listener = ResilienceListener.make(observer: { event, _ in observer(event) }, operation: nil, call: nil)
    }

    /// Tells `observer` every event with its context: the operation, the attempt and the
    /// request it happened for.
    ///
    /// ```swift
    /// let events = ResilienceEvents { event, context in
    ///     logger.info("\(context): \(event)")   // payments attempt 2 POST https://pay.example.com:443: …
    /// }
    /// ```
    public init(_ observer: @escaping @Sendable (ResilienceEvent, ResilienceEventContext) -> Void) {
        listener = ResilienceListener.make(observer: observer, operation: nil, call: nil)
    }

    init(listener: ResilienceListener?) {
        self.listener = listener
    }

    /// Whether an observer listens (or the call's report records): otherwise no event is built.
    ///
    /// ```swift
    /// ResilienceEvents.none.isObserved   // false
    /// ```
    @inlinable
    public var isObserved: Bool { listener != nil }

    /// The same observer, its events told for the operation `name` (a ``ResiliencePipeline``
    /// names its events so).
    ///
    /// ```swift
    /// let paymentsEvents = events.named("payments")
    /// ```
    public func named(_ name: String?) -> ResilienceEvents {
        guard let listener, let name else { return self }
        return ResilienceEvents(
            listener: ResilienceListener.make(observer: listener.observer, operation: name, call: listener.call))
    }

    /// The events of one call for `request`: each tells the call's attempt and request, and
    /// goes into `recorder`'s report. The same value when nobody listens and no report is asked
    /// for, so that a call costs nothing more.
    func forCall(request: ResilienceRequestIdentity?, recorder: ResilienceReportRecorder? = nil) -> ResilienceEvents {
        guard listener != nil || recorder != nil else { return self }
        return ResilienceEvents(
            listener: ResilienceListener.make(
                observer: listener?.observer, operation: listener?.operation,
                call: ResilienceCall(request: request, recorder: recorder)))
    }

    /// Tells the observer the event `make` builds; builds nothing without an observer.
    @inlinable
    func emit(_ make: @autoclosure () -> ResilienceEvent) {
        if let listener { listener.tell(make(), in: listener.call, operation: listener.operation) }
    }

    /// Tells this observer the event `make` builds, in the context of `call`'s events (a shared
    /// breaker's or limiter's event, during a call of a pipeline), and records it in that call's
    /// report; builds nothing when neither listens.
    @inlinable
    func emit(_ make: @autoclosure () -> ResilienceEvent, during call: ResilienceEvents?) {
        guard isObserved(during: call) else { return }
        let during = call?.listener?.call ?? listener?.call
        let operation = call?.listener?.operation ?? listener?.operation
        if let listener {
            listener.tell(make(), in: during, operation: operation)
        } else {
            during?.recorder?.record(make())
        }
    }

    /// Whether this observer, or the report of `call`, takes the events of a shared object.
    @inlinable
    func isObserved(during call: ResilienceEvents?) -> Bool {
        listener?.observer != nil || call?.listener?.call?.recorder != nil
    }

    /// An `onRetry` for the selective retry that tells the observer each retry as
    /// ``ResilienceEvent/retryScheduled(retry:delay:error:)``. Passing the events as the retry's
    /// `events` tells the same and more (attempts, give-up); do not pass both.
    ///
    /// ```swift
    /// request.retry(3, backoff: .exponential(), scheduler: DispatchQueue.main, onRetry: events.onRetry())
    /// ```
    public func onRetry<Failure: Error>() -> (RetryAttempt<Failure>) -> Void {
        let events = self
        return { attempt in events.emit(.retryScheduled(retry: attempt.retry, delay: attempt.delay, error: attempt.error)) }
    }
}
