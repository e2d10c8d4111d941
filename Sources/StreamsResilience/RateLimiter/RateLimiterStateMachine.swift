import Streams

/// The state of a ``RateLimiter``: a token bucket kept in nanoseconds of credit, with no lock
/// and no callouts.
///
/// A token costs `interval` nanoseconds (the period over the permits); the bucket holds at most
/// `burst` tokens' worth of credit and earns one nanosecond of credit per nanosecond of time. A
/// call takes a token when there is one; otherwise it reserves the next one (the credit goes
/// below zero) if that one comes within `maxWait`, and is refused if not. Integer arithmetic
/// throughout, so that waits come out exact.
@usableFromInline
struct RateLimiterStateMachine {
    /// A token now, a token reserved after a wait, or none within `maxWait`.
    @usableFromInline
    typealias AcquireAction = GateAdmission

    let interval: Int64
    let capacity: Int64
    let maxWait: Int64
    var credit: Int64
    /// When the credit was last brought up to date; nil before the first call.
    var updated: Int64?

    init(interval: Int64, burst: Int, maxWait: Int64) {
        self.interval = interval
        let (capacity, overflow) = interval.multipliedReportingOverflow(by: Int64(burst))
        self.capacity = overflow ? .max : capacity
        self.maxWait = maxWait
        credit = self.capacity
    }

    /// The tokens free now (whole ones), after bringing the credit up to `now`.
    mutating func available(at now: Int64) -> Int {
        refill(at: now)
        return credit > 0 ? Int(credit / interval) : 0
    }

    mutating func acquire(at now: Int64) -> AcquireAction {
        refill(at: now)
        if credit >= interval {
            credit -= interval
            return .permit
        }
        let wait = interval - credit
        guard wait <= maxWait else {
            return .reject(LimiterRejectedError(reason: .rateLimited, retryAfter: .nanoseconds(wait)))
        }
        credit -= interval
        return .delay(.nanoseconds(wait))
    }

    /// The tokens spent from the burst (whole ones, rounded up), and the calls waiting for a
    /// reserved token, as of the last update.
    var usage: (inUse: Int, queued: Int) {
        let spent = capacity - max(credit, 0)
        let owed = credit < 0 ? -credit : 0
        return (inUse: Int((spent + interval - 1) / interval), queued: Int((owed + interval - 1) / interval))
    }

    /// A call that reserved a token was cancelled before its wait ended: the token comes back.
    mutating func refund() {
        credit = min(capacity, credit + interval)
    }

    private mutating func refill(at now: Int64) {
        defer { updated = max(updated ?? now, now) }
        guard let updated, now > updated else { return }
        let (earned, overflow) = credit.addingReportingOverflow(now - updated)
        credit = overflow ? capacity : min(capacity, earned)
    }
}
