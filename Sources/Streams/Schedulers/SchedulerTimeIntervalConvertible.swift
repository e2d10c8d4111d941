/// A time interval that can be made from seconds, milliseconds, microseconds or nanoseconds:
/// every scheduler's `Stride`.
///
/// ```swift
/// let wait: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(800)
/// ```
public protocol SchedulerTimeIntervalConvertible {
    /// `s` whole seconds.
    static func seconds(_ s: Int) -> Self
    /// `s` seconds, with a fraction.
    static func seconds(_ s: Double) -> Self
    /// `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}
