import Streams

extension Publisher {
    /// Subscribes to this publisher only once `interval` has passed on `scheduler`. RxSwift's
    /// `delaySubscription`.
    ///
    /// - The downstream gets its subscription at once; its requests are added up during the
    ///   wait and passed on when the upstream subscription arrives.
    /// - The wait starts when the downstream subscribes, with one action scheduled for
    ///   `scheduler.now + interval`; the upstream is subscribed from that action, on the
    ///   scheduler.
    /// - Cancelling during the wait cancels the scheduled action: the upstream is never
    ///   subscribed. Afterwards, cancel goes to the upstream.
    /// - Values and the completion are not delayed: they pass straight through once subscribed.
    ///
    /// ```
    /// upstream (subscribed at 2):   --a-b-|
    /// delaySubscription(for: 2):  ----a-b-|
    /// ```
    ///
    /// ```swift
    /// // Give the server two seconds to restart before connecting again.
    /// let reconnect = connect().delaySubscription(for: .seconds(2), scheduler: DispatchQueue.main)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: How long to wait before subscribing.
    ///   - tolerance: How late the subscription may be; the scheduler's `minimumTolerance` if nil.
    ///   - scheduler: The scheduler that waits and subscribes.
    ///   - options: Options for the scheduled action.
    @inlinable
    public func delaySubscription<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.DelaySubscription<Self, S> {
        Publishers.DelaySubscription(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance, scheduler: scheduler,
            options: options)
    }
}
