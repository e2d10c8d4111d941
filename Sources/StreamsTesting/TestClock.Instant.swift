import Streams

extension TestClock {
    /// An instant of a ``TestClock``: the virtual time since its scheduler's start.
    ///
    /// It writes itself as the scheduler's ``VirtualTime`` does: `t=` and the time since the
    /// start, `"t=0s"`, `"t=250ms"`, `"t=1.5s"`.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let deadline = clock.now.advanced(by: .milliseconds(1_500))
    /// print(deadline)   // t=1.5s
    /// ```
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The virtual time since the scheduler's start. The clock's `now` always holds whole
        /// nanoseconds, the scheduler's unit.
        ///
        /// ```swift
        /// await clock.advance(by: .seconds(2))
        /// clock.now.offset   // 2 seconds
        /// ```
        public let offset: Duration

        /// The instant `offset` after the scheduler's start.
        ///
        /// ```swift
        /// await clock.advance(to: .init(offset: .seconds(3)))   // three seconds in
        /// ```
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The scheduler's instant `time`.
        init(_ time: VirtualTime) {
            offset = .nanoseconds(time.nanoseconds)
        }

        /// The instant `duration` later (earlier when negative).
        ///
        /// ```swift
        /// let deadline = clock.now.advanced(by: .seconds(1))
        /// ```
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        ///
        /// ```swift
        /// let start = clock.now
        /// await clock.advance(by: .seconds(2))
        /// start.duration(to: clock.now)   // 2 seconds
        /// ```
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// ```swift
        /// clock.now < clock.now.advanced(by: .nanoseconds(1))   // true
        /// ```
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The instant as `t=` and the time since the scheduler's start, written as
        /// ``VirtualTime`` writes itself: `"t=0s"`, `"t=250ms"`, `"t=1.5s"`. An instant between
        /// two nanoseconds (made by hand, never the clock's `now`) shows its `Duration`.
        ///
        /// ```swift
        /// print(clock.now)   // t=1.5s
        /// ```
        public var description: String {
            let nanoseconds = nanosecondsRoundedUp
            guard Duration.nanoseconds(nanoseconds) == offset else { return "t=\(offset)" }
            return VirtualTime(nanoseconds: nanoseconds).description
        }

        /// The scheduler's instant at which this one has come: the first whole nanosecond at or
        /// after it, so that a task sleeping until it never wakes early.
        var virtualTime: VirtualTime {
            VirtualTime(nanoseconds: nanosecondsRoundedUp)
        }

        /// ``offset`` in nanoseconds, rounded up, clamped to `Int64`.
        private var nanosecondsRoundedUp: Int64 {
            // Both components carry the sign of the offset.
            let (seconds, attoseconds) = offset.components
            var (nanoseconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
            if remainder > 0 { nanoseconds += 1 }
            let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            guard !overflow else { return seconds < 0 ? .min : .max }
            let (total, sumOverflow) = whole.addingReportingOverflow(nanoseconds)
            guard !sumOverflow else { return nanoseconds < 0 ? .min : .max }
            return total
        }
    }
}
