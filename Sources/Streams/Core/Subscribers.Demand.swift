extension Subscribers {
    /// How many more values a subscriber wants: a number, or `.unlimited`.
    ///
    /// Demand only adds up. Arithmetic saturates: anything with `.unlimited` stays `.unlimited`
    /// (except `max(n) - .unlimited`, which is `.none`), an overflowing `+` or `*` gives
    /// `.unlimited`, and `-` never goes below `.none`.
    ///
    /// ```swift
    /// var demand = Subscribers.Demand.max(2)
    /// demand += 1            // .max(3)
    /// demand -= .max(5)      // .none
    /// demand > 0             // false
    /// Subscribers.Demand.unlimited > Int.max   // true
    /// ```
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
        /// `UInt(Int.max) + 1` for `.unlimited`, otherwise the count.
        @usableFromInline
        let rawValue: UInt

        @inlinable
        init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        // The constants are computed properties, not `static let`s: a stored static is read
        // through a lazy-initialisation accessor call, which the per-value paths would pay.
        @inlinable
        static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        /// As many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// No values.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// At most `value` values. `value` must not be negative.
        ///
        /// ```swift
        /// subscription.request(.max(1))
        /// ```
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Subscribers.Demand.max requires a count of zero or more, got \(value)")
            return Demand(rawValue: UInt(value))
        }

        /// The count, or `nil` for `.unlimited`.
        ///
        /// ```swift
        /// Subscribers.Demand.max(3).max      // 3
        /// Subscribers.Demand.unlimited.max   // nil
        /// ```
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// `"unlimited"` or `"max(n)"`.
        public var description: String {
            self == .unlimited ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Demand and Demand

        /// The sum; `.unlimited` if either side is or if the sum overflows.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            switch (lhs.max, rhs.max) {
            case let (l?, r?):
                let (sum, overflow) = l.addingReportingOverflow(r)
                return overflow ? .unlimited : Demand(rawValue: UInt(sum))
            default:
                return .unlimited
            }
        }

        /// Adds `rhs` to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// The difference, never below `.none`. `.unlimited - x` is `.unlimited`;
        /// `.max(n) - .unlimited` is `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            switch (lhs.max, rhs.max) {
            case (nil, _):
                return .unlimited
            case (_, nil):
                return .none
            case let (l?, r?):
                return r >= l ? .none : Demand(rawValue: UInt(l - r))
            }
        }

        /// Subtracts `rhs` from `lhs`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        // MARK: Demand and Int

        /// The sum; `.unlimited` stays `.unlimited`, an overflow gives `.unlimited`,
        /// and a negative result is `.none`.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (sum, overflow) = l.addingReportingOverflow(rhs)
            if overflow { return rhs > 0 ? .unlimited : .none }
            return sum < 0 ? .none : Demand(rawValue: UInt(sum))
        }

        /// Adds `rhs` to `lhs`.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// The difference; `.unlimited` stays `.unlimited` and the result is never below `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (difference, overflow) = l.subtractingReportingOverflow(rhs)
            if overflow { return rhs < 0 ? .unlimited : .none }
            return difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Subtracts `rhs` from `lhs`.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// The product; `.unlimited` stays `.unlimited`, an overflow gives `.unlimited`, and a
        /// negative result is `.none`.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.max else { return .unlimited }
            let (product, overflow) = l.multipliedReportingOverflow(by: rhs)
            if overflow { return rhs > 0 ? .unlimited : .none }
            return product < 0 ? .none : Demand(rawValue: UInt(product))
        }

        /// Multiplies `lhs` by `rhs`.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparisons

        /// Orders demands by count; `.unlimited` is the largest.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// Whether `lhs` equals the count `rhs`; `.unlimited` equals no `Int`.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            lhs.max.map { $0 == rhs } ?? false
        }

        /// Whether `lhs` differs from the count `rhs`; `.unlimited` differs from every `Int`.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            !(lhs == rhs)
        }

        /// Whether the count `lhs` equals `rhs`.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs == lhs
        }

        /// Whether the count `lhs` differs from `rhs`.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            rhs != lhs
        }

        /// Whether `lhs` is less than `rhs`; `.unlimited` is greater than every `Int`.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            lhs.max.map { $0 < rhs } ?? false
        }

        /// Whether `lhs` is at most `rhs`; `.unlimited` is greater than every `Int`.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            lhs.max.map { $0 <= rhs } ?? false
        }

        /// Whether `lhs` is more than `rhs`; `.unlimited` is greater than every `Int`.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            lhs.max.map { $0 > rhs } ?? true
        }

        /// Whether `lhs` is at least `rhs`; `.unlimited` is greater than every `Int`.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            lhs.max.map { $0 >= rhs } ?? true
        }

        /// Whether `lhs` is less than `rhs`; every `Int` is less than `.unlimited`.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            rhs > lhs
        }

        /// Whether `lhs` is at most `rhs`; every `Int` is less than `.unlimited`.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            rhs >= lhs
        }

        /// Whether `lhs` is more than `rhs`; no `Int` is more than `.unlimited`.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            rhs < lhs
        }

        /// Whether `lhs` is at least `rhs`; no `Int` is at least `.unlimited`.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            rhs <= lhs
        }

        // MARK: Codable

        /// Decodes the demand from its raw count; as in Combine, any count above `Int.max` is
        /// `.unlimited` and a negative one fails.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            rawValue = min(try container.decode(UInt.self), Demand.unlimitedRawValue)
        }

        /// Encodes the demand as its raw count.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
