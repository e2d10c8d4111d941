import Foundation

/// Reads the rate-limit headers servers send with a 429 or a 503, as hints for when to try
/// again beside `Retry-After`:
/// - `RateLimit-Reset` and `X-RateLimit-Reset`: seconds until the quota resets, or the instant
///   it resets in seconds since 1970 (GitHub's form), told apart by size: a value of
///   ``epochThreshold`` or more is an instant;
/// - `RateLimit` (IETF httpapi draft): a list of quota items such as `"default";r=0;t=30`,
///   whose `t` is the seconds until the item's quota resets and `r` what remains of it; the
///   earlier drafts' `limit=100, remaining=0, reset=30` is read too.
///
/// Every function takes any text and never traps; a value it does not understand is no hint.
///
/// ```swift
/// RateLimitHint.reset("30", now: Date())                           // 30 seconds
/// RateLimitHint.reset("1700000030", now: Date(timeIntervalSince1970: 1_700_000_000))   // 30 seconds
/// RateLimitHint.rateLimitField(#""default";r=0;t=45"#)               // 45 seconds
/// ```
public enum RateLimitHint {
    /// Reset values from this many seconds on are instants (2001-09-09), not durations.
    public static let epochThreshold: Int64 = 1_000_000_000

    /// The header names read for a reset time.
    public static let resetHeaders = ["RateLimit-Reset", "X-RateLimit-Reset"]

    /// The longest wait any of the rate-limit headers asks for, or nil if none gives one.
    /// `header` looks a header up by name; `now` is the server's clock when the response has a
    /// `Date` header, so that an instant is measured as the server meant it.
    ///
    /// ```swift
    /// let wait = RateLimitHint.wait(now: serverNow) { response.value(forHTTPHeaderField: $0) }
    /// ```
    public static func wait(now: Date, header: (String) -> String?) -> Duration? {
        var hints = resetHeaders.compactMap { header($0).flatMap { reset($0, now: now) } }
        if let field = header("RateLimit"), let hint = rateLimitField(field) { hints.append(hint) }
        return hints.max()
    }

    /// A `RateLimit-Reset` or `X-RateLimit-Reset` value: digits (optional whitespace around),
    /// seconds from now, or an instant if at least ``epochThreshold``; an instant that has
    /// passed is `.zero`. Nil for anything else (signs, fractions, several values).
    ///
    /// ```swift
    /// RateLimitHint.reset("60", now: Date())   // 60 seconds
    /// ```
    public static func reset(_ value: String, now: Date) -> Duration? {
        guard let seconds = integer(Array(value.utf8)[...].trimmingBlanks()) else { return nil }
        guard seconds >= epochThreshold else { return .seconds(seconds) }
        let now = now.timeIntervalSince1970
        guard now.isFinite else { return nil }
        let wait = Double(seconds) - now
        return wait <= 0 ? .zero : .seconds(min(wait, 9.2e18))
    }

    /// The wait an IETF `RateLimit` field asks for: the longest `t` among the items whose quota
    /// is spent (`r=0`), or among all items if none says what remains; nil if no item has a
    /// usable `t` (or a legacy `reset`).
    ///
    /// ```swift
    /// RateLimitHint.rateLimitField(#""day";r=10;t=3600, "minute";r=0;t=20"#)   // 20 seconds
    /// ```
    public static func rateLimitField(_ value: String) -> Duration? {
        var spent: [Int64] = []
        var unknown: [Int64] = []
        var legacyReset: Int64?
        for member in split(Array(value.utf8)[...], at: UInt8(ascii: ",")) {
            var remaining: Int64?
            var reset: Int64?
            for (index, part) in split(member, at: UInt8(ascii: ";")).enumerated() {
                let pair = split(part, at: UInt8(ascii: "="))
                guard pair.count == 2 else { continue }
                let key = String(decoding: pair[0].trimmingBlanks(), as: UTF8.self).lowercased()
                let number = integer(pair[1].trimmingBlanks())
                switch (index, key) {
                case (_, "t"): reset = number
                case (_, "r"): remaining = number
                case (0, "reset"): legacyReset = number
                case (0, "remaining"): remaining = number
                default: break
                }
            }
            if let reset {
                if remaining == 0 { spent.append(reset) } else if remaining == nil { unknown.append(reset) }
            }
        }
        let seconds = spent.max() ?? unknown.max() ?? legacyReset
        return seconds.map { .seconds($0) }
    }

    /// `bytes` split at `separator`, outside double-quoted strings (a backslash escapes the
    /// next byte inside them).
    static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var quoted = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if escaped {
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if !quoted && byte == separator {
                parts.append(bytes[start..<index])
                start = index + 1
            }
        }
        parts.append(bytes[start..<bytes.endIndex])
        return parts
    }

    /// A non-negative decimal integer of at most 18 digits, or nil.
    static func integer(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard digit >= 0x30 && digit <= 0x39 else { return nil }
            value = value * 10 + Int64(digit - 0x30)
        }
        return value
    }
}

extension ArraySlice where Element == UInt8 {
    /// Without the spaces and tabs around it.
    func trimmingBlanks() -> ArraySlice<UInt8> {
        var slice = self
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
