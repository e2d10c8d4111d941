import Streams

/// The state of a ``PushbackLimiter``, in nanoseconds on the pipelines' time line, with no lock
/// and no callouts.
///
/// - `pausedUntil`: no call starts before it (the server's `Retry-After`, or a spent quota's
///   reset).
/// - The quota, when pacing: `remaining` calls may start in the window that ends at `resetAt`;
///   when none remain, the next call waits for `resetAt` and opens the next window (of `limit`
///   calls and `period` long, when both are known), so that calls queue window by window,
///   no sooner than `windowStart`. A window that passes gives `limit` calls again.
/// - `inFlight`: calls admitted and not yet ended; a report subtracts the others from what the
///   server says remains, since the server may not have counted them yet.
///
/// A call that would wait longer than `maxWait` is refused with the wait as its hint, and takes
/// nothing. Integer arithmetic throughout, saturating, so that waits come out exact.
struct PushbackLimiterStateMachine {
    /// What the limiter does with a call that asks to start: now, after the wait for the
    /// server's instant or the quota's next window, or refused beyond `maxWait`.
    typealias AcquireAction = GateAdmission

    let maxWait: Int64
    let pacesToQuota: Bool
    var pausedUntil = Int64.min
    var limit: Int?
    var remaining: Int?
    var resetAt: Int64?
    /// The longest reset the server announced: the estimate of its window.
    var period: Int64?
    var windowStart = Int64.min
    var inFlight = 0

    init(maxWait: Int64, pacesToQuota: Bool) {
        self.maxWait = maxWait
        self.pacesToQuota = pacesToQuota
    }

    /// A call asks to start at `now`.
    mutating func acquire(at now: Int64) -> AcquireAction {
        roll(at: now)
        var start = max(now, pausedUntil, windowStart)
        var opensNextWindow: Int64?
        if pacesToQuota, let remaining, remaining <= 0, let resetAt {
            start = max(start, resetAt)
            opensNextWindow = resetAt
        }
        let wait = start &- now
        guard wait <= maxWait else {
            return .reject(LimiterRejectedError(reason: .serverPushback, retryAfter: .nanoseconds(wait)))
        }
        if let next = opensNextWindow {
            windowStart = next
            if let limit, let period {
                remaining = limit - 1
                resetAt = Self.adding(next, period)
            } else {
                remaining = nil
                resetAt = nil
            }
        } else if let left = remaining {
            remaining = left - 1
        }
        inFlight += 1
        return wait > 0 ? .delay(.nanoseconds(wait)) : .permit
    }

    /// An admitted call ended.
    mutating func release() {
        inFlight = max(0, inFlight - 1)
    }

    /// A call cancelled while it waited: its place comes back.
    mutating func abandon() {
        release()
        if let left = remaining { remaining = min(left + 1, limit ?? .max) }
    }

    /// The server asked, at `now`, that no call start for `wait`.
    mutating func pushBack(for wait: Duration, at now: Int64) {
        guard wait > .zero else { return }
        pausedUntil = max(pausedUntil, Self.adding(now, ResilienceTime.nanoseconds(wait)))
    }

    /// A response read at `now` announced `quota`; `fromCall`: it answers a call still in flight
    /// (the others in flight may not be counted by the server yet).
    mutating func report(_ quota: ServerQuota, at now: Int64, fromCall: Bool) {
        roll(at: now)
        if let announced = quota.limit, announced >= 0 { limit = announced }
        let reset = quota.reset.map { ResilienceTime.nanoseconds($0) }
        if let reset, reset > 0 { period = max(period ?? 0, reset) }
        guard let announced = quota.remaining, let reset else { return }
        let reportedReset = Self.adding(now, max(0, reset))
        if announced <= 0 { pausedUntil = max(pausedUntil, reportedReset) }
        // Calls already hold places in a later window: the report describes the current one,
        // which those places treat as spent.
        guard pacesToQuota, windowStart <= now else { return }
        let others = max(0, inFlight - (fromCall ? 1 : 0))
        let left = max(0, announced - others)
        if let resetAt, let remaining, Self.distance(reportedReset, resetAt) < (period ?? 0) / 2 {
            // The same window, announced again: keep the stricter count and the later reset.
            self.remaining = min(remaining, left)
            self.resetAt = max(resetAt, reportedReset)
        } else {
            remaining = left
            resetAt = reportedReset
        }
    }

    /// How long a call asking at `now` would wait (zero when it would start at once).
    mutating func wait(at now: Int64) -> Int64 {
        roll(at: now)
        var start = max(now, pausedUntil, windowStart)
        if pacesToQuota, let remaining, remaining <= 0, let resetAt { start = max(start, resetAt) }
        return start &- now
    }

    /// A window that has passed gives its `limit` again, and the next reset is a period later.
    private mutating func roll(at now: Int64) {
        guard let end = resetAt, now >= end else { return }
        remaining = limit
        if limit != nil, let period, period > 0 {
            let passed = (now - end) / period + 1
            let (span, overflow) = period.multipliedReportingOverflow(by: passed)
            resetAt = overflow ? .max : Self.adding(end, span)
        } else {
            resetAt = nil
        }
    }

    private static func adding(_ instant: Int64, _ span: Int64) -> Int64 {
        let (sum, overflow) = instant.addingReportingOverflow(span)
        return overflow ? (span > 0 ? .max : .min) : sum
    }

    private static func distance(_ first: Int64, _ second: Int64) -> Int64 {
        let (difference, overflow) = first.subtractingReportingOverflow(second)
        return overflow ? .max : difference.magnitude > UInt64(Int64.max) ? .max : Int64(difference.magnitude)
    }
}
