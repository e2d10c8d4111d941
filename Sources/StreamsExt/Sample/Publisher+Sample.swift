import Streams

extension Publisher {
    /// Sends this publisher's latest value each time `trigger` sends a value, if a new value
    /// arrived since the last one sent; a trigger value with nothing new sends nothing. RxSwift's
    /// `sample(_:)` (without its default value).
    ///
    /// - Both publishers are asked for all their values; only the latest of this publisher's is
    ///   kept.
    /// - Demand: a trigger value while the downstream has no demand takes no sample; the latest
    ///   value waits for the next trigger value.
    /// - This publisher finishing ends the stream at the next trigger value (or the trigger's
    ///   finishing), after the latest value if there is one, as in RxSwift.
    /// - The trigger finishing sends the latest value, if any, and finishes. (RxSwift finishes
    ///   there only if this publisher has finished too, and otherwise never sends again.)
    /// - A failure of either fails the stream and cancels the other; cancelling cancels both.
    ///
    /// ```
    /// upstream: -1-2---3-----4-|
    /// trigger:  ----t---t--t-----t
    /// result:   ----2---3--------[4|]
    /// ```
    ///
    /// ```swift
    /// let shown = positions.sample(frames)   // at most one position per frame, none if unchanged
    /// ```
    @inlinable
    public func sample<Trigger: Publisher>(_ trigger: Trigger) -> Publishers.Sample<Self, Trigger>
    where Trigger.Failure == Failure {
        Publishers.Sample(upstream: self, trigger: trigger)
    }
}
