import Foundation

extension RunLoop {
    /// The run loop's time: a `Date`. A type of its own, as in Combine, with its own ``Stride``.
    ///
    /// ```swift
    /// let inASecond = RunLoop.main.now.advanced(by: .seconds(1))
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The time.
        public var date: Date

        /// Wraps `date`.
        ///
        /// ```swift
        /// let start = RunLoop.SchedulerTimeType(Date())
        /// ```
        public init(_ date: Date) {
            self.date = date
        }

        /// The distance to `other`, in seconds.
        ///
        /// ```swift
        /// start.distance(to: start.advanced(by: 2))   // 2 seconds
        /// ```
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// The time `n` later (or earlier, for a negative `n`).
        ///
        /// ```swift
        /// let later = start.advanced(by: .milliseconds(500))
        /// ```
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.magnitude))
        }

        /// A distance between two times of a run loop, in seconds.
        ///
        /// ```swift
        /// let wait: RunLoop.SchedulerTimeType.Stride = .milliseconds(250)   // 0.25 s
        /// ```
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// Literals are seconds.
            public typealias FloatLiteralType = TimeInterval
            /// Literals are seconds.
            public typealias IntegerLiteralType = TimeInterval
            /// A length in seconds.
            public typealias Magnitude = TimeInterval

            /// The distance in seconds.
            public var magnitude: TimeInterval

            /// The distance in seconds, as Foundation's `TimeInterval`.
            ///
            /// ```swift
            /// RunLoop.SchedulerTimeType.Stride.milliseconds(1).timeInterval   // 0.001
            /// ```
            public var timeInterval: TimeInterval { magnitude }

            /// A distance of `timeInterval` seconds.
            ///
            /// ```swift
            /// let wait = RunLoop.SchedulerTimeType.Stride(0.5)
            /// ```
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// A distance of `value` seconds.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// A distance of `value` seconds.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// A distance of `source` seconds, when exactly representable.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = TimeInterval(exactly: source) else { return nil }
                magnitude = seconds
            }

            /// `s` seconds.
            public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
            /// `s` seconds.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// `ms` milliseconds.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
            /// `us` microseconds.
            public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }

            /// Orders by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// The sum.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// The product of the two lengths in seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds `rhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts `rhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }
}
