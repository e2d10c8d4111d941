import Streams

/// The outcomes a ``CircuitBreaker`` samples: a ring of the last calls (count window), or ten
/// buckets of a tenth of the duration each (time window). Calls, failures and slow calls are
/// counted as outcomes arrive; nothing else is kept.
@usableFromInline
struct FailureWindow {
    /// Count window: the outcomes of the last calls (whether each failed, and was slow); empty
    /// for a time window.
    var outcomes: [(failed: Bool, slow: Bool)] = []
    /// Count window: where the next outcome goes.
    var next = 0
    /// Count window: the calls and failures in the ring.
    var calls = 0
    var failures = 0
    var slowCalls = 0
    /// Time window: each bucket's number (its start divided by the width), calls, failures and
    /// slow calls.
    var bucketNumbers: [Int64] = []
    var bucketCalls: [Int] = []
    var bucketFailures: [Int] = []
    var bucketSlowCalls: [Int] = []
    /// Time window: a bucket's width in nanoseconds; 0 for a count window.
    let bucketWidth: Int64
    /// The size of the count window.
    let capacity: Int

    static let bucketCount = 10

    init(_ window: CircuitBreaker.Window) {
        switch window {
        case .count(let size):
            capacity = size
            bucketWidth = 0
            outcomes.reserveCapacity(size)
        case .time(let duration):
            capacity = 0
            bucketWidth = max(1, ResilienceTime.nanoseconds(duration) / Int64(Self.bucketCount))
            bucketNumbers = Array(repeating: .min, count: Self.bucketCount)
            bucketCalls = Array(repeating: 0, count: Self.bucketCount)
            bucketFailures = Array(repeating: 0, count: Self.bucketCount)
            bucketSlowCalls = Array(repeating: 0, count: Self.bucketCount)
        }
    }

    /// The number of the bucket `now` falls in.
    func bucket(at now: Duration) -> Int64 {
        let nanoseconds = ResilienceTime.nanoseconds(now)
        let quotient = nanoseconds / bucketWidth
        return nanoseconds < 0 && nanoseconds % bucketWidth != 0 ? quotient - 1 : quotient
    }

    /// Counts the outcome of a call that ended at `now`; `slow`: counted apart as slow.
    mutating func record(failed: Bool, slow: Bool = false, at now: Duration) {
        if bucketWidth == 0 {
            if outcomes.count < capacity {
                outcomes.append((failed, slow))
            } else {
                if outcomes[next].failed { failures -= 1 }
                if outcomes[next].slow { slowCalls -= 1 }
                calls -= 1
                outcomes[next] = (failed, slow)
            }
            next = (next + 1) % capacity
            calls += 1
            if failed { failures += 1 }
            if slow { slowCalls += 1 }
        } else {
            let number = bucket(at: now)
            let slot = Int(((number % Int64(Self.bucketCount)) + Int64(Self.bucketCount)) % Int64(Self.bucketCount))
            if bucketNumbers[slot] != number {
                bucketNumbers[slot] = number
                bucketCalls[slot] = 0
                bucketFailures[slot] = 0
                bucketSlowCalls[slot] = 0
            }
            bucketCalls[slot] += 1
            if failed { bucketFailures[slot] += 1 }
            if slow { bucketSlowCalls[slot] += 1 }
        }
    }

    /// The calls, failures and slow calls (counted apart) in the window at `now`.
    func totals(at now: Duration) -> (calls: Int, failures: Int, slowCalls: Int) {
        guard bucketWidth != 0 else { return (calls, failures, slowCalls) }
        let newest = bucket(at: now)
        var totals = (calls: 0, failures: 0, slowCalls: 0)
        for slot in 0..<Self.bucketCount where bucketNumbers[slot] > newest - Int64(Self.bucketCount) {
            totals.calls += bucketCalls[slot]
            totals.failures += bucketFailures[slot]
            totals.slowCalls += bucketSlowCalls[slot]
        }
        return totals
    }

    /// Forgets every outcome.
    mutating func clear() {
        if bucketWidth == 0 {
            outcomes.removeAll(keepingCapacity: true)
            next = 0
            calls = 0
            failures = 0
            slowCalls = 0
        } else {
            for slot in 0..<Self.bucketCount {
                bucketNumbers[slot] = .min
                bucketCalls[slot] = 0
                bucketFailures[slot] = 0
                bucketSlowCalls[slot] = 0
            }
        }
    }
}
