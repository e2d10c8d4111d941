/// A scheduler that runs every action at once, on the calling thread.
///
/// Handy where an API takes a scheduler but the work should just happen now, and in tests of
/// code that does not depend on time. Delays are ignored: work scheduled "after" a date runs
/// immediately too.
///
/// ```swift
/// let cancellable = Just(1).receive(on: ImmediateScheduler.shared).sink { print($0) }
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The immediate scheduler's time: every instant is the same instant.
    ///
    /// ```swift
    /// let now = ImmediateScheduler.shared.now
    /// now.advanced(by: 5) == now   // true
    /// ```
    public struct SchedulerTimeType: Strideable, Sendable, Hashable {
        /// The distance to `other`: always zero.
        ///
        /// ```swift
        /// ImmediateScheduler.shared.now.distance(to: ImmediateScheduler.shared.now)   // 0
        /// ```
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// This same instant: time does not pass on the immediate scheduler.
        ///
        /// ```swift
        /// let same = ImmediateScheduler.shared.now.advanced(by: 10)
        /// ```
        public func advanced(by n: Stride) -> SchedulerTimeType { self }

        /// The immediate scheduler's interval: a plain count, with no unit, that the scheduler
        /// ignores. The time conversions (`.seconds(_:)`, `.milliseconds(_:)`, ...) all give 0;
        /// a float literal is truncated toward zero.
        ///
        /// ```swift
        /// let delay: ImmediateScheduler.SchedulerTimeType.Stride = 14.6   // magnitude 14
        /// ```
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// A float literal is truncated toward zero.
            public typealias FloatLiteralType = Double
            /// An integer literal is the count.
            public typealias IntegerLiteralType = Int
            /// The count.
            public typealias Magnitude = Int

            /// The count (negative for a negative stride).
            public var magnitude: Int

            /// A stride of `value`.
            ///
            /// ```swift
            /// let stride = ImmediateScheduler.SchedulerTimeType.Stride(3)
            /// ```
            public init(_ value: Int) {
                magnitude = value
            }

            /// A stride of `value`.
            public init(integerLiteral value: Int) {
                magnitude = value
            }

            /// A stride of `value` truncated toward zero.
            public init(floatLiteral value: Double) {
                magnitude = Int(value)
            }

            /// A stride of `source`, or nil when it does not fit in an `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// 0: the immediate scheduler has no time.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// 0: the immediate scheduler has no time.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// 0: the immediate scheduler has no time.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// 0: the immediate scheduler has no time.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// 0: the immediate scheduler has no time.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }

            /// Orders by count.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// The sum of the counts.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference of the counts.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// The product of the counts.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds `rhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }

    /// The immediate scheduler has no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// Always the same instant.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` now, ignoring `date`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now; nothing repeats, and the result (``Subscriptions/empty``, as in
    /// Combine) cancels nothing.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
