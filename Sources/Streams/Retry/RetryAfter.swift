import Foundation

/// Reads HTTP `Retry-After` values.
///
/// ```swift
/// RetryAfter.parse("120")                             // 120 seconds
/// RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT")   // until then (.zero if it has passed)
/// RetryAfter.parse("soon")                            // nil
/// ```
public enum RetryAfter {
    /// The longest hint: what a delta-seconds value too large to represent becomes, so that
    /// any `retryAfterLimit` gives up on it.
    public static let unbounded = Duration.seconds(Int64.max)

    /// The default `retryAfterLimit`, one minute: the automatic retry gives up on a server that
    /// asks to wait longer (`retry(_:when:backoff:retryAfterLimit:...)`), and StreamsRecovery's
    /// default handler then offers no "Try Again" (trying again at once cannot help). One
    /// constant, so that what is retried automatically and what the user is offered agree.
    ///
    /// ```swift
    /// let patient = request.retry(3, backoff: .exponential(), retryAfterLimit: RetryAfter.defaultLimit * 5, scheduler: queue)
    /// ```
    public static let defaultLimit = Duration.seconds(60)

    /// Parses an HTTP `Retry-After` value: delta-seconds (digits, with optional surrounding
    /// whitespace) or an HTTP-date in any of RFC 9110's three forms, always GMT: IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`), the obsolete RFC 850 form (`Sunday, 06-Nov-94
    /// 08:49:37 GMT`, whose two-digit year is the one that puts the instant at most 50 years
    /// after `now`) and asctime (`Sun Nov  6 08:49:37 1994`).
    ///
    /// Returns the time to wait from `now`: `.zero` for a date that has passed, ``unbounded``
    /// for a number of seconds too large to represent, and `nil` for anything else (empty,
    /// negative, fractional, several values, unknown names, out-of-range fields). The result is
    /// never negative. A date needs a finite `now` to be measured against: when `now` is NaN or
    /// infinite, a date gives `nil` (delta-seconds do not depend on `now`), and so does an RFC
    /// 850 date whose two-digit year, settled against `now`, falls outside 0000...9999.
    ///
    /// ```swift
    /// let wait = RetryAfter.parse(response.value(forHTTPHeaderField: "Retry-After") ?? "")
    /// ```
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = trimmed(value)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.allSatisfy(isDigit) {
            return deltaSeconds(trimmed)
        }
        guard let date = httpDate(trimmed, now: now) else { return nil }
        let seconds = date.timeIntervalSince1970 - now.timeIntervalSince1970
        guard seconds.isFinite else { return nil }
        if seconds <= 0 { return .zero }
        // Dates have four-digit years, so only an absurd `now` can come near the limit.
        return seconds < 9.2e18 ? .seconds(seconds) : unbounded
    }

    /// The instant an HTTP-date names (any of the three forms, surrounding whitespace allowed),
    /// for headers such as `Date` that hold nothing else: digits are not a date. `now` only
    /// settles the century of an RFC 850 two-digit year.
    package static func date(_ value: String, now: Date = Date()) -> Date? {
        httpDate(trimmed(value), now: now)
    }

    /// The bytes of `value` without the optional whitespace (spaces and tabs) around it.
    private static func trimmed(_ value: String) -> ArraySlice<UInt8> {
        let text = Array(value.utf8)
        var start = 0
        var end = text.count
        while start < end, isWhitespace(text[start]) { start += 1 }
        while end > start, isWhitespace(text[end - 1]) { end -= 1 }
        return text[start..<end]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func deltaSeconds(_ digits: ArraySlice<UInt8>) -> Duration {
        var seconds: Int64 = 0
        for digit in digits {
            let (shifted, overflow1) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(Int64(digit - 0x30))
            if overflow1 || overflow2 { return unbounded }
            seconds = sum
        }
        return .seconds(seconds)
    }

    // MARK: HTTP-date

    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A cursor over the bytes of a date, with exact-match helpers that fail by returning nil.
    private struct Scanner {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        var atEnd: Bool { index == bytes.endIndex }

        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.endIndex, bytes[index..<index + expected.count].elementsEqual(expected) else {
                return false
            }
            index += expected.count
            return true
        }

        mutating func word(from names: [String]) -> Int? {
            for (position, name) in names.enumerated() {
                let saved = index
                if literal(name) { return position }
                index = saved
            }
            return nil
        }

        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.endIndex else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        /// `HH:MM:SS`.
        mutating func time() -> (Int, Int, Int)? {
            guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2) else {
                return nil
            }
            return (hour, minute, second)
        }
    }

    private static func httpDate(_ bytes: ArraySlice<UInt8>, now: Date) -> Date? {
        imfFixdate(bytes) ?? rfc850Date(bytes, now: now) ?? asctimeDate(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func imfFixdate(_ bytes: ArraySlice<UInt8>) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.word(from: shortDays) != nil, scanner.literal(", "),
            let day = scanner.digits(2), scanner.literal(" "),
            let month = scanner.word(from: months), scanner.literal(" "),
            let year = scanner.digits(4), scanner.literal(" "),
            let (hour, minute, second) = scanner.time(), scanner.literal(" GMT"), scanner.atEnd
        else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func rfc850Date(_ bytes: ArraySlice<UInt8>, now: Date) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.word(from: longDays) != nil, scanner.literal(", "),
            let day = scanner.digits(2), scanner.literal("-"),
            let month = scanner.word(from: months), scanner.literal("-"),
            let shortYear = scanner.digits(2), scanner.literal(" "),
            let (hour, minute, second) = scanner.time(), scanner.literal(" GMT"), scanner.atEnd,
            let year = fullYear(shortYear, month: month + 1, day: day, secondOfDay: hour * 3_600 + minute * 60 + second, now: now)
        else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    /// RFC 9110: a two-digit year that would put the instant more than 50 years after `now` is
    /// the most recent past year with the same last two digits. The comparison is between
    /// instants (year, month, day, time of day), not whole years. `nil` when `now` is not a
    /// finite date within a few million years of 1970, or when the year found is not one the
    /// four-digit forms can write (0000...9999): an HTTP-date never names another.
    private static func fullYear(_ shortYear: Int, month: Int, day: Int, secondOfDay: Int, now: Date) -> Int? {
        let nowSeconds = now.timeIntervalSince1970
        guard nowSeconds.isFinite, abs(nowSeconds) < 1e14 else { return nil }
        let nowDays = (nowSeconds / 86_400).rounded(.down)
        let (nowYear, nowMonth, nowDay) = civilDate(daysFromEpoch: Int(nowDays))
        let nowSecondOfDay = nowSeconds - nowDays * 86_400
        let century = nowYear - ((nowYear % 100) + 100) % 100
        let year = century + shortYear
        // This candidate is at most 99 years after `now`; the one before it is in the past.
        let tooLate = (year, month, day, Double(secondOfDay)) > (nowYear + 50, nowMonth, nowDay, nowSecondOfDay)
        let resolved = tooLate ? year - 100 : year
        return (0...9_999).contains(resolved) ? resolved : nil
    }

    /// `Sun Nov  6 08:49:37 1994` (or `Sun Nov 16 08:49:37 1994`)
    private static func asctimeDate(_ bytes: ArraySlice<UInt8>) -> Date? {
        var scanner = Scanner(bytes: bytes)
        guard scanner.word(from: shortDays) != nil, scanner.literal(" "),
            let month = scanner.word(from: months), scanner.literal(" ")
        else { return nil }
        let day: Int
        if scanner.literal(" ") {
            guard let single = scanner.digits(1) else { return nil }
            day = single
        } else {
            guard let double = scanner.digits(2) else { return nil }
            day = double
        }
        guard scanner.literal(" "), let (hour, minute, second) = scanner.time(), scanner.literal(" "),
            let year = scanner.digits(4), scanner.atEnd
        else { return nil }
        return makeDate(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
    }

    /// The instant of a UTC calendar date, or nil when a field is out of range.
    private static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date, in the proleptic Gregorian calendar.
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian calendar date of a day counted from 1970-01-01.
    private static func civilDate(daysFromEpoch: Int) -> (year: Int, month: Int, day: Int) {
        let days = daysFromEpoch + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
