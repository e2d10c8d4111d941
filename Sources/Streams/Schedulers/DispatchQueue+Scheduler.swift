import Dispatch

extension DispatchQueue: Scheduler {
    /// Options for work scheduled on a queue. (Sendable: `DispatchWorkItemFlags` is a plain
    /// option set, and `DispatchGroup` is thread-safe.)
    ///
    /// ```swift
    /// let options = DispatchQueue.SchedulerOptions(qos: .userInitiated)
    /// ```
    // Unchecked: `DispatchWorkItemFlags` is a plain option set and `DispatchGroup` is thread-safe.
    public struct SchedulerOptions: @unchecked Sendable {
        /// The quality of service of the work.
        public var qos: DispatchQoS
        /// The work item's flags.
        public var flags: DispatchWorkItemFlags
        /// A group the work joins.
        public var group: DispatchGroup?

        /// Makes options; the defaults change nothing.
        ///
        /// ```swift
        /// let options = DispatchQueue.SchedulerOptions(qos: .utility, group: group)
        /// ```
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// A queue's time: a `DispatchTime`.
    ///
    /// ```swift
    /// let inASecond = DispatchQueue.main.now.advanced(by: .seconds(1))
    /// ```
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The time.
        public var dispatchTime: DispatchTime

        /// Wraps `time`.
        ///
        /// ```swift
        /// let start = DispatchQueue.SchedulerTimeType(.now())
        /// ```
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The signed distance to `other` in nanoseconds. A distance longer than `Int` can hold
        /// (such as to or from `DispatchTime.distantFuture`) is `.nanoseconds(.max)` going forwards
        /// and `.nanoseconds(-.max)` going backwards; Combine gives `.max` both ways.
        ///
        /// ```swift
        /// let start = DispatchQueue.main.now
        /// start.distance(to: start.advanced(by: .seconds(2))) == .seconds(2)
        /// ```
        public func distance(to other: SchedulerTimeType) -> Stride {
            let from = dispatchTime.uptimeNanoseconds
            let to = other.dispatchTime.uptimeNanoseconds
            if to >= from {
                return Stride(nanoseconds: Int(clamping: to - from))
            }
            return Stride(nanoseconds: -Int(clamping: from - to))
        }

        /// The time `n` later (or earlier, for a negative `n`), by Dispatch's own arithmetic, as in
        /// Combine: a result of 2^62 - 1 nanoseconds of uptime or more (about 146 years), which
        /// Dispatch cannot represent, is `DispatchTime.distantFuture`, and so is any time moved
        /// from beyond that; a time before the first is the first (one nanosecond).
        ///
        /// ```swift
        /// let later = DispatchQueue.main.now.advanced(by: .milliseconds(500))
        /// let never = DispatchQueue.main.now.advanced(by: .nanoseconds(.max))  // distantFuture
        /// ```
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let base = dispatchTime.uptimeNanoseconds
            guard base <= Self.dispatchLimit else { return SchedulerTimeType(.distantFuture) }
            if n.magnitude >= 0 {
                let sum = base + UInt64(n.magnitude)  // both below 2^63: no overflow
                return SchedulerTimeType(sum < Self.dispatchLimit ? DispatchTime(uptimeNanoseconds: sum) : .distantFuture)
            }
            let back = UInt64(n.magnitude.magnitude)
            // An uptime of zero would read as "now" to Dispatch, so one nanosecond is the earliest time.
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: base > back ? base - back : 1))
        }

        /// Dispatch's limit for its time arithmetic, in nanoseconds of uptime: a sum that reaches
        /// it, or a time beyond it, is `DispatchTime.distantFuture`.
        static var dispatchLimit: UInt64 { (1 << 62) - 1 }

        /// Hashes the time.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// Whether both are the same time.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// Decodes the time from its uptime nanoseconds.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self)))
        }

        /// Encodes the time as its uptime nanoseconds.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// A queue's interval: a signed count of nanoseconds. Literals and `init?(exactly:)` mean
        /// seconds, as in Combine; it encodes as `{"_nanoseconds": n}`.
        ///
        /// ```swift
        /// let debounce: DispatchQueue.SchedulerTimeType.Stride = 0.8        // seconds
        /// let same: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(800)
        /// ```
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
            ExpressibleByFloatLiteral, Hashable, Codable, Sendable
        {
            /// The interval's type: a signed count of nanoseconds, as in Combine.
            public typealias Magnitude = Int

            /// The interval in nanoseconds (negative for an interval backwards).
            ///
            /// ```swift
            /// DispatchQueue.SchedulerTimeType.Stride.milliseconds(2).magnitude == 2_000_000
            /// ```
            public var magnitude: Int

            private enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }

            /// An interval of `nanoseconds` nanoseconds.
            ///
            /// ```swift
            /// let stride = DispatchQueue.SchedulerTimeType.Stride(nanoseconds: 1_500)
            /// ```
            @inlinable
            public init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// The interval as a `DispatchTimeInterval`.
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            /// Converts a `DispatchTimeInterval` (`.never` is the largest interval).
            ///
            /// ```swift
            /// let stride = DispatchQueue.SchedulerTimeType.Stride(.milliseconds(5))
            /// ```
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self.init(nanoseconds: .max)
                @unknown default: self.init(nanoseconds: .max)
                }
            }

            /// An interval of `timeInterval` seconds.
            ///
            /// ```swift
            /// let stride = DispatchQueue.SchedulerTimeType.Stride(0.25)
            /// ```
            public init(_ timeInterval: Double) {
                self = .seconds(timeInterval)
            }

            /// `value` seconds.
            public init(floatLiteral value: Double) {
                self = .seconds(value)
            }

            /// `value` seconds.
            public init(integerLiteral value: Int) {
                self = .seconds(value)
            }

            /// `source` seconds, if it fits in an `Int` (longer intervals saturate, as `.seconds` does).
            ///
            /// ```swift
            /// DispatchQueue.SchedulerTimeType.Stride(exactly: 2 as UInt64) == .seconds(2)
            /// ```
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                self = .seconds(seconds)
            }

            /// `s` whole seconds, clamped.
            public static func seconds(_ s: Int) -> Stride { scaled(s, by: 1_000_000_000) }

            /// `s` seconds, clamped; not-a-number is zero.
            public static func seconds(_ s: Double) -> Stride {
                let nanoseconds = s * 1_000_000_000
                if nanoseconds.isNaN { return .zero }
                if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
                if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
                return Stride(nanoseconds: Int(nanoseconds.rounded()))
            }

            /// `ms` milliseconds, clamped.
            public static func milliseconds(_ ms: Int) -> Stride { scaled(ms, by: 1_000_000) }

            /// `us` microseconds, clamped.
            public static func microseconds(_ us: Int) -> Stride { scaled(us, by: 1_000) }

            /// `ns` nanoseconds.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }

            /// `value * factor` nanoseconds, clamped to `Int`.
            static func scaled(_ value: Int, by factor: Int) -> Stride {
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                if overflow { return Stride(nanoseconds: value < 0 ? .min : .max) }
                return Stride(nanoseconds: product)
            }

            /// Orders by length.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// The sum, clamped.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                let (sum, overflow) = lhs.magnitude.addingReportingOverflow(rhs.magnitude)
                return overflow ? Stride(nanoseconds: rhs.magnitude > 0 ? .max : .min) : Stride(nanoseconds: sum)
            }

            /// The difference, clamped.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                let (difference, overflow) = lhs.magnitude.subtractingReportingOverflow(rhs.magnitude)
                return overflow ? Stride(nanoseconds: rhs.magnitude < 0 ? .max : .min) : Stride(nanoseconds: difference)
            }

            /// Multiplying two intervals has no meaning; as in Combine, the result is zero.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { .zero }

            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Sets `lhs` to zero, as `*` does.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            /// Scales an interval by a whole number, clamped.
            ///
            /// ```swift
            /// let twice = DispatchQueue.SchedulerTimeType.Stride.seconds(1) * 2
            /// ```
            public static func * (lhs: Stride, rhs: Int) -> Stride {
                let (product, overflow) = lhs.magnitude.multipliedReportingOverflow(by: rhs)
                if overflow { return Stride(nanoseconds: (lhs.magnitude < 0) != (rhs < 0) ? .min : .max) }
                return Stride(nanoseconds: product)
            }
        }
    }

    /// The current time.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Zero: the queue uses the tolerance it is given.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` asynchronously on the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        let options = options ?? SchedulerOptions()
        async(group: options.group, qos: options.qos, flags: options.flags) { work.run() }
    }

    /// Runs `action` on the queue at `date` (the tolerance is not used, as in Combine). A date
    /// too far ahead for Dispatch (2^62 - 1 nanoseconds of uptime or more, such as
    /// `DispatchTime.distantFuture`) never comes, and the action is released at once.
    ///
    /// The work waits in a heap of deadlines that one timer serves for every queue, not in a
    /// Dispatch timer of its own (see "Timers on a DispatchQueue" in `Docs/Internals.md`); when
    /// it is due it goes to the queue with `async`, with the options' quality of service and
    /// flags. Work due at the same time runs in the order it was scheduled.
    ///
    /// ```swift
    /// queue.schedule(after: queue.now.advanced(by: .milliseconds(300))) { print("later") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        DispatchTimerEngine.shared.schedule(
            on: self, at: Self.deadline(of: date).uptimeNanoseconds, interval: 0, tolerance: 0, options: options, action)
    }

    /// Runs `action` on the queue at `date` and every `interval` after, as a Dispatch timer does
    /// with `tolerance` as its leeway: the ticks fall on `date + k * interval`, a tick never
    /// starts while the previous one runs, and ticks missed meanwhile make one tick at once.
    /// Cancelling the result stops the ticks and releases `action` at once (a tick already
    /// running finishes; one handed to the queue but not started does not run). `interval` must
    /// not be negative; zero means one nanosecond, as in Dispatch: a tick as soon as the
    /// previous one ends. A date too far ahead for Dispatch never comes.
    ///
    /// ```swift
    /// let ticks = queue.schedule(after: queue.now, interval: .seconds(1)) { print("tick") }
    /// ticks.cancel()
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(
            interval >= .zero, "DispatchQueue: a repeating schedule requires an interval of zero or more, got \(interval)")
        // Always an entry: a repeating schedule has a first tick, however far ahead.
        return DispatchTimerEngine.shared.schedule(
            on: self, at: Self.deadline(of: date).uptimeNanoseconds, interval: UInt64(max(interval.magnitude, 1)),
            tolerance: UInt64(max(tolerance.magnitude, 0)), options: options, action)!
    }

    /// `date` as a deadline for Dispatch. Dispatch reads an uptime of 2^63 nanoseconds or more
    /// (about 292 years) as a wall-clock time long past and would run the work at once, so such
    /// a date, which only an absurd wait reaches, becomes `.distantFuture`: never. (The timer
    /// engine treats any deadline from 2^62 - 1 nanoseconds on as never, too.)
    static func deadline(of date: SchedulerTimeType) -> DispatchTime {
        date.dispatchTime.uptimeNanoseconds < UInt64(Int64.max) ? date.dispatchTime : .distantFuture
    }
}

/// An action handed to Dispatch, which requires `@Sendable` closures. Schedulers take plain
/// closures, as in Combine; the queue runs the action serially, on its own thread.
