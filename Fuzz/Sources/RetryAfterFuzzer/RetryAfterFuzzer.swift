import Foundation
import Streams

// Input: one byte choosing `now`, then (for the "any Double" choice) 8 bytes of it, then the
// header value. Besides "no crash, no hang", it checks what a caller relies on: the wait is
// never negative nor beyond `RetryAfter.unbounded`; digits mean exactly that many seconds; a
// date is a fixed instant (moving `now` back moves the wait by the same amount); no date
// lies after the year 9999, and no RFC 850 date more than 50 years ahead.

/// 2026-11-22 00:00:00 UTC.
let fixedNow = 1_795_305_600.0
let latestDate = 253_402_300_800.0  // 10000-01-01 00:00:00 UTC
let fiftyYears = Duration.seconds(50 * 366 * 86_400)

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("absurd result: \(message())") }
}

func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = UnsafeBufferPointer(start: data, count: size)[...]
    guard let mode = bytes.popFirst() else { return 0 }
    var nowSeconds = fixedNow
    switch mode % 4 {
    case 0: break
    case 1: nowSeconds = fixedNow + Double(mode) * 1_000_003
    case 2: nowSeconds = 0
    default:
        guard bytes.count >= 8 else { return 0 }
        var bits: UInt64 = 0
        for byte in bytes.prefix(8) { bits = bits << 8 | UInt64(byte) }
        bytes = bytes.dropFirst(8)
        nowSeconds = Double(bitPattern: bits)
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let now = Date(timeIntervalSince1970: nowSeconds)
    guard let wait = RetryAfter.parse(text, now: now) else { return 0 }
    check(wait >= .zero, "negative wait \(wait) for \(text.debugDescription)")
    check(wait <= RetryAfter.unbounded, "wait \(wait) beyond unbounded for \(text.debugDescription)")

    let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
    if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        let expected = Int64(trimmed).map { Duration.seconds($0) } ?? RetryAfter.unbounded
        check(wait == expected, "\(text.debugDescription) read as \(wait), not \(expected)")
        return 0
    }
    // A date.
    check(nowSeconds.isFinite, "a date measured against a non-finite now \(nowSeconds)")
    guard wait > .zero, wait < RetryAfter.unbounded, abs(nowSeconds) < 1e12 else { return 0 }
    check(nowSeconds + seconds(wait) <= latestDate, "\(text.debugDescription) is after the year 9999")
    let isRFC850 = trimmed.contains("-")
    if isRFC850 {
        check(wait <= fiftyYears, "\(text.debugDescription) read as more than 50 years ahead: \(wait)")
    } else if let earlier = RetryAfter.parse(text, now: now - 1_000) {
        check(
            abs(seconds(earlier) - seconds(wait) - 1_000) < 0.01,
            "\(text.debugDescription): \(earlier) 1000 s earlier, \(wait) now")
    } else {
        check(false, "\(text.debugDescription) is a date only at some instants")
    }
    return 0
}
