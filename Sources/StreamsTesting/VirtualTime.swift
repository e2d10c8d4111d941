import Dispatch
import Streams

/// The `TestScheduler`'s instant: nanoseconds since the scheduler was made.
///
/// Its stride is `DispatchQueue`'s, so that `.milliseconds(800)`, `.seconds(0.8)` and the literal
/// `0.8` all work.
///
/// ```swift
/// let scheduler = TestScheduler()
/// scheduler.advance(to: VirtualTime(nanoseconds: 1_000_000_000))   // one second in
/// ```
public struct VirtualTime: Strideable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// A virtual interval: the same nanosecond stride as `DispatchQueue`'s.
    ///
    /// ```swift
    /// let interval: VirtualTime.Stride = .milliseconds(250)
    /// ```
    public typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    /// Nanoseconds since the scheduler's start.
    ///
    /// ```swift
    /// let elapsed = scheduler.now.nanoseconds
    /// ```
    public let nanoseconds: Int64

    /// The instant `nanoseconds` after the start.
    ///
    /// ```swift
    /// scheduler.advance(to: .init(nanoseconds: 1_000_000_000))   // one second in
    /// ```
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The distance to `other`.
    ///
    /// ```swift
    /// VirtualTime(nanoseconds: 0).distance(to: .init(nanoseconds: 5)) == .nanoseconds(5)
    /// ```
    public func distance(to other: VirtualTime) -> Stride {
        Stride(nanoseconds: Int(clamping: other.nanoseconds)) - Stride(nanoseconds: Int(clamping: nanoseconds))
    }

    /// The instant `n` later, clamped.
    ///
    /// ```swift
    /// scheduler.now.advanced(by: .seconds(1))
    /// ```
    public func advanced(by n: Stride) -> VirtualTime {
        VirtualTime(nanoseconds: Int64((Stride(nanoseconds: Int(clamping: nanoseconds)) + n).magnitude))
    }

    /// The instant as `t=` and the time since the scheduler's start, written as
    /// ``Stride`` writes an interval: `"t=0s"`, `"t=250ms"`, `"t=1.5s"`.
    ///
    /// ```swift
    /// print(scheduler.now)   // t=1.5s
    /// ```
    public var description: String {
        "t=\(Stride(nanoseconds: Int(clamping: nanoseconds)))"
    }
}
