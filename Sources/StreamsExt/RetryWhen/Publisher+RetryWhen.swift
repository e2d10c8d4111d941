import Streams

extension Publisher {
    /// Subscribes to this publisher again each time a trigger sends a value; the trigger is made
    /// by `notificationHandler` from a publisher of this publisher's failures. CombineExt's and
    /// RxSwift's `retryWhen`.
    ///
    /// - A failure of this publisher is not passed on: it goes to the trigger's publisher of
    ///   failures. Each value of the trigger starts a new subscription to this publisher (one
    ///   that is still running is cancelled first).
    /// - The trigger finishing finishes the stream, and its failure fails it (a failure of
    ///   another type than `Failure` finishes it), at any time: the running subscription is
    ///   cancelled. This publisher finishing finishes the stream too.
    /// - Demand: the downstream's requests go to the current subscription; what is left of them
    ///   goes to the next one.
    /// - Cancelling cancels the current subscription and the trigger.
    ///
    /// ```
    /// upstream, 1st:  -1-#
    /// failures:       ---e        (e: that failure, sent as a value)
    /// trigger:        ----r
    /// upstream, 2nd:      ^-2-|
    /// result:         -1----2-|
    /// ```
    ///
    /// ```swift
    /// // Up to three more tries, one second apart.
    /// let data = request.retryWhen { failures in
    ///     failures.prefix(3).flatMap { _ in Just(()).delay(for: .seconds(1), scheduler: queue) }
    /// }
    /// ```
    @inlinable
    public func retryWhen<RetryTrigger: Publisher>(
        _ notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> RetryTrigger
    ) -> Publishers.RetryWhen<Self, RetryTrigger, Output, Failure> {
        Publishers.RetryWhen(upstream: self, notificationHandler: notificationHandler)
    }
}
