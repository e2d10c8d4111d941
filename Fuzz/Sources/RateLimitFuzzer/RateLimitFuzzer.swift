import Foundation
import StreamsNetworking

// Input: one byte choosing the header (RateLimit, RateLimit-Reset or X-RateLimit-Reset), then
// its value. Besides "no crash, no hang", it checks that a wait is never negative, that a
// reset of digits below the epoch threshold is exactly that many seconds, and that an instant
// is measured from the server's clock (moving the clock back moves the wait by as much).

/// 2026-11-22 00:00:00 UTC.
let fixedNow = Date(timeIntervalSince1970: 1_795_305_600)

func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("absurd result: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = UnsafeBufferPointer(start: data, count: size)[...]
    guard let choice = bytes.popFirst() else { return 0 }
    let value = String(decoding: bytes, as: UTF8.self)
    switch choice % 3 {
    case 0:
        if let wait = RateLimitHint.rateLimitField(value) { check(wait >= .zero, "wait \(wait) for \(value.debugDescription)") }
    default:
        let name = RateLimitHint.resetHeaders[Int(choice % 3) - 1]
        guard let wait = RateLimitHint.wait(now: fixedNow, header: { $0 == name ? value : nil }) else { return 0 }
        check(wait >= .zero, "wait \(wait) for \(value.debugDescription)")
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if let seconds = Int64(trimmed), seconds >= 0, seconds < RateLimitHint.epochThreshold {
            check(wait == .seconds(seconds), "\(value.debugDescription) read as \(wait)")
        } else if let seconds = Int64(trimmed), seconds < 9_000_000_000_000_000,  // exact as a Double
            let later = RateLimitHint.reset(value, now: fixedNow - 60), wait > .zero
        {
            check(later == wait + .seconds(60), "an instant moved: \(wait) then \(later)")
        }
    }
    return 0
}
