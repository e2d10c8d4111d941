// The floor: each workload written as a plain loop that calls the same closures, with no
// reactive library at all. The closures pass through `opaque` first, so the optimiser calls
// them as a library would instead of folding the loop into a formula; the closure that sums
// the results captures a variable, as the workloads' `sink` does. No library can beat these
// numbers; the table reports how far above them each library lands.

import Dispatch

/// Hands `value` back unchanged where the optimiser cannot see it.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T { value }

/// Hand-written equivalents of the workloads in Workloads.swift.
public enum Baseline {
    /// W1 and W1g.
    public static func sequenceMap(_ count: Int) -> Int {
        var sum = 0
        let transform = opaque { (value: Int) in value &* 2 }
        let receive = opaque { (value: Int) in sum &+= value }
        for value in 0..<count { receive(transform(value)) }
        return sum
    }

    /// W2 and W2g.
    public static func sequenceChain(_ count: Int) -> Int {
        var sum = 0
        let increment = opaque { (value: Int) in value &+ 1 }
        let isEven = opaque { (value: Int) in value & 1 == 0 }
        let isNotMultipleOfFour = opaque { (value: Int) in value & 3 != 0 }
        let isNotNegative = opaque { (value: Int) in value >= 0 }
        let receive = opaque { (value: Int) in sum &+= value }
        for value in 0..<count {
            let a = increment(value)
            guard isEven(a) else { continue }
            let b = increment(a)
            guard isNotMultipleOfFour(b) else { continue }
            let c = increment(b)
            guard isNotNegative(c) else { continue }
            let d = increment(c)
            guard isNotNegative(d) else { continue }
            receive(d)
        }
        return sum
    }

    /// W3 and W4: one value through a map and a filter per send.
    public static func subjectChain(_ count: Int) -> Int {
        var sum = 0
        let transform = opaque { (value: Int) in value &+ 1 }
        let isIncluded = opaque { (value: Int) in value & 1 == 0 }
        let receive = opaque { (value: Int) in sum &+= value }
        for value in 0..<count {
            let mapped = transform(value)
            if isIncluded(mapped) { receive(mapped) }
        }
        return sum
    }

    /// W5: every send reaches four receivers.
    public static func shareFourSinks(_ count: Int) -> Int {
        var sum = 0
        let receivers = opaque((0..<4).map { _ in { (value: Int) in sum &+= value } })
        for value in 0..<count {
            for receiver in receivers { receiver(value) }
        }
        return sum
    }

    /// W6 and W8: one value handed to one closure per cycle.
    public static func oneValuePerCycle(_ count: Int) -> Int {
        var sum = 0
        let transform = opaque { (value: Int) in value &+ 1 }
        let receive = opaque { (value: Int) in sum &+= value }
        for _ in 0..<count { receive(transform(1)) }
        return sum
    }

    /// W7: drop values equal to the previous one.
    public static func removeDuplicatesRuns(_ count: Int) -> Int {
        var sum = 0
        let receive = opaque { (value: Int) in sum &+= value }
        var previous: Int?
        for index in 0..<count {
            let value = index / 3
            if value != previous { receive(value) }
            previous = value
        }
        return sum
    }

    /// W9: the last value of every burst of ten.
    public static func debounceBursts(_ count: Int) -> Int {
        var sum = 0
        let receive = opaque { (value: Int) in sum &+= value }
        for value in 0..<count where value % 10 == 9 { receive(value) }
        return sum
    }

    /// W10: the latest of three inputs, summed once all three have a value.
    public static func combineLatestThree(_ count: Int) -> Int {
        var sum = 0
        let receive = opaque { (values: (Int, Int, Int)) in sum &+= values.0 &+ values.1 &+ values.2 }
        var latest: [Int?] = [nil, nil, nil]
        for value in 0..<count {
            latest[value % 3] = value
            if let a = latest[0], let b = latest[1], let c = latest[2] { receive((a, b, c)) }
        }
        return sum
    }

    /// The queue the floors of W15 to W17 schedule their timers on.
    static let timerQueue = DispatchQueue(label: "baseline.timers")

    /// W15 and W16: a callback that answers at once, guarded by a 30 s timer on a queue that
    /// is set up and cancelled per call.
    public static func requestWithTimeout(_ count: Int) -> Int {
        var sum = 0
        let receive = opaque { (value: Int) in sum &+= value }
        let request = opaque { (value: Int, answer: (Int) -> Void) in answer(value) }
        for value in 0..<count {
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            timer.setEventHandler { receive(-1) }
            timer.schedule(deadline: .now() + 30)
            timer.resume()
            request(value, receive)
            timer.cancel()
        }
        return sum
    }

    /// W17: a debounce written by hand: each send keeps its value and moves one timer's
    /// deadline a second ahead.
    public static func debounceOneTimer(_ count: Int) -> Int {
        let latest = opaque { (value: Int) in value }
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        var sum = 0
        timer.setEventHandler { sum &+= 1 }
        timer.resume()
        for value in 0..<count {
            sum &+= latest(value) & 0
            timer.schedule(deadline: .now() + 1)
        }
        timer.cancel()
        return sum &+ count
    }
}
