import Streams

/// The state of a ``RateLimiter``, with no lock and no callouts: a token bucket, a fixed window
/// or a sliding window, as its ``RateLimiter/Algorithm`` says. Times are nanoseconds on the
/// pipelines' time line; integer arithmetic throughout, so that waits come out exact. A call
/// takes `permits` at once (a batch call takes more than one).
///
/// - Token bucket: a permit costs `interval` nanoseconds of credit (the period over the
///   permits); the bucket holds at most `burst` permits' worth and earns one nanosecond of credit
///   per nanosecond. A call takes its permits when the credit covers them, otherwise reserves
///   them (the credit goes below zero) if they come within `maxWait`.
/// - Fixed window: `limit` permits in each window of `period`, the windows following one
///   another from the first call. A call takes its permits in the first window, from its own on,
///   that has room: at once in its own, or at the start of a later one within `maxWait`.
/// - Sliding window: never more than `limit` permits admitted in any span of `period`. The
///   admissions (reserved ones included) are kept with their instants; a call is admitted at the
///   first instant, from now on, at which the admissions of the `period` before it, and every
///   reservation after it, leave room for its permits.
///
/// A refused call is told how long until its permits would be free (its `Retry-After` hint).
@usableFromInline
struct RateLimiterStateMachine {
    /// Permits now, permits reserved after a wait, or none within `maxWait`.
    @usableFromInline
    typealias AcquireAction = GateAdmission

    let algorithm: RateLimiter.Algorithm
    let limit: Int
    let period: Int64
    let interval: Int64
    let capacity: Int64
    let maxWait: Int64
    /// Token bucket: the credit, in nanoseconds.
    var credit: Int64
    /// Token bucket: when the credit was last brought up to date; nil before the first call.
    var updated: Int64?
    /// Fixed window: where the first window starts (the first call's instant).
    var origin: Int64?
    /// Fixed window: the permits taken in the current window and the ones reserved after it.
    var windowPermits: [Int64: Int] = [:]
    /// Sliding window: each admission's instant and permits, oldest first.
    var admissions: [(at: Int64, permits: Int)] = []

    init(algorithm: RateLimiter.Algorithm, limit: Int, period: Int64, burst: Int, maxWait: Int64) {
        self.algorithm = algorithm
        self.limit = limit
        self.period = period
        interval = period / Int64(limit)
        let (capacity, overflow) = interval.multipliedReportingOverflow(by: Int64(burst))
        self.capacity = overflow ? .max : capacity
        self.maxWait = maxWait
        credit = self.capacity
    }

    /// The permits free now, after bringing the state up to `now`.
    mutating func available(at now: Int64) -> Int {
        switch algorithm {
        case .tokenBucket:
            refill(at: now)
            return credit > 0 ? Int(credit / interval) : 0
        case .fixedWindow:
            guard let origin else { return limit }
            return max(0, limit - (windowPermits[window(of: now, from: origin)] ?? 0))
        case .slidingWindow:
            forget(before: now)
            return max(0, limit - admissions.reduce(0) { $0 + $1.permits })
        }
    }

    /// The permits in use and the ones reserved by calls waiting to start, as of `now`: for
    /// the token bucket, the tokens spent from the burst (whole ones, rounded up) and those owed;
    /// for a window, the permits its current window (or the last `period`) counts, and those
    /// reserved after `now`.
    func usage(at now: Int64) -> (inUse: Int, queued: Int) {
        switch algorithm {
        case .tokenBucket:
            let spent = capacity - max(credit, 0)
            let owed = credit < 0 ? -credit : 0
            return (inUse: Int((spent + interval - 1) / interval), queued: Int((owed + interval - 1) / interval))
        case .fixedWindow:
            guard let origin else { return (0, 0) }
            let current = window(of: now, from: origin)
            let queued = windowPermits.reduce(0) { $0 + ($1.key > current ? $1.value : 0) }
            return (inUse: windowPermits[current] ?? 0, queued: queued)
        case .slidingWindow:
            let inUse = admissions.reduce(0) { $0 + ($1.at <= now && $1.at > now - period ? $1.permits : 0) }
            let queued = admissions.reduce(0) { $0 + ($1.at > now ? $1.permits : 0) }
            return (inUse: inUse, queued: queued)
        }
    }

    /// A call of `permits` asks to start at `now`.
    mutating func acquire(_ permits: Int, at now: Int64) -> AcquireAction {
        switch algorithm {
        case .tokenBucket: takeFromBucket(permits, at: now)
        case .fixedWindow: takeFromFixedWindow(permits, at: now)
        case .slidingWindow: takeFromSlidingWindow(permits, at: now)
        }
    }

    /// A call of `permits` that reserved them for `reservedAt` was cancelled before its wait
    /// ended: its permits come back.
    mutating func refund(_ permits: Int, reservedAt: Int64) {
        switch algorithm {
        case .tokenBucket:
            credit = min(capacity, credit + interval * Int64(permits))
        case .fixedWindow:
            guard let origin else { return }
            let window = window(of: reservedAt, from: origin)
            guard let taken = windowPermits[window] else { return }
            windowPermits[window] = taken > permits ? taken - permits : nil
        case .slidingWindow:
            if let index = admissions.lastIndex(where: { $0.at == reservedAt && $0.permits == permits }) {
                admissions.remove(at: index)
            }
        }
    }

    private mutating func takeFromBucket(_ permits: Int, at now: Int64) -> AcquireAction {
        refill(at: now)
        let cost = interval * Int64(permits)
        if credit >= cost {
            credit -= cost
            return .permit
        }
        let wait = cost - credit
        guard wait <= maxWait else {
            return .reject(LimiterRejectedError(reason: .rateLimited, retryAfter: .nanoseconds(wait)))
        }
        credit -= cost
        return .delay(.nanoseconds(wait))
    }

    private mutating func refill(at now: Int64) {
        defer { updated = max(updated ?? now, now) }
        guard let updated, now > updated else { return }
        let (earned, overflow) = credit.addingReportingOverflow(now - updated)
        credit = overflow ? capacity : min(capacity, earned)
    }

    /// The number of the fixed window `instant` falls in.
    private func window(of instant: Int64, from origin: Int64) -> Int64 {
        let offset = instant - origin
        let quotient = offset / period
        return offset < 0 && offset % period != 0 ? quotient - 1 : quotient
    }

    private mutating func takeFromFixedWindow(_ permits: Int, at now: Int64) -> AcquireAction {
        let origin = origin ?? now
        self.origin = origin
        let current = window(of: now, from: origin)
        windowPermits = windowPermits.filter { $0.key >= current }
        var chosen = current
        while (windowPermits[chosen] ?? 0) + permits > limit { chosen += 1 }
        let wait = chosen == current ? 0 : origin + chosen * period - now
        guard wait <= maxWait else {
            return .reject(LimiterRejectedError(reason: .rateLimited, retryAfter: .nanoseconds(wait)))
        }
        windowPermits[chosen, default: 0] += permits
        return wait == 0 ? .permit : .delay(.nanoseconds(wait))
    }

    /// Forgets the admissions that no span of `period` reaching `now` or later contains.
    private mutating func forget(before now: Int64) {
        let stale = admissions.prefix { $0.at <= now - period }.count
        if stale > 0 { admissions.removeFirst(stale) }
    }

    private mutating func takeFromSlidingWindow(_ permits: Int, at now: Int64) -> AcquireAction {
        forget(before: now)
        // Counting every admission after `start - period` (later reservations included) keeps
        // every span of `period` that contains `start` within the limit.
        var counted = admissions.reduce(0) { $0 + $1.permits }
        var start = now
        var index = 0
        while counted + permits > limit, index < admissions.count {
            counted -= admissions[index].permits
            start = max(now, admissions[index].at + period)
            index += 1
        }
        let wait = start - now
        guard wait <= maxWait else {
            return .reject(LimiterRejectedError(reason: .rateLimited, retryAfter: .nanoseconds(wait)))
        }
        let position = admissions.firstIndex { $0.at > start } ?? admissions.count
        admissions.insert((start, permits), at: position)
        return wait == 0 ? .permit : .delay(.nanoseconds(wait))
    }
}
