// The floor: each workload written as a plain loop that calls the same closures, with no
// reactive library at all. No library can beat these numbers; the table reports how far
// above them each library lands.

/// Hand-written equivalents of the workloads in Workloads.swift.
public enum Baseline {
    /// W1 and W1g.
    public static func sequenceMap(_ count: Int) -> Int {
        let transform: (Int) -> Int = { $0 &* 2 }
        var sum = 0
        for value in 0..<count { sum &+= transform(value) }
        return sum
    }

    /// W2 and W2g.
    public static func sequenceChain(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            let a = value &+ 1
            guard a & 1 == 0 else { continue }
            let b = a &+ 1
            guard b & 3 != 0 else { continue }
            let c = b &+ 1
            guard c >= 0 else { continue }
            let d = c &+ 1
            guard d >= 0 else { continue }
            sum &+= d
        }
        return sum
    }

    /// W3 and W4: one value through a map and a filter per send.
    public static func subjectChain(_ count: Int) -> Int {
        let transform: (Int) -> Int = { $0 &+ 1 }
        let isIncluded: (Int) -> Bool = { $0 & 1 == 0 }
        var sum = 0
        for value in 0..<count {
            let mapped = transform(value)
            if isIncluded(mapped) { sum &+= mapped }
        }
        return sum
    }

    /// W5: every send reaches four receivers.
    public static func shareFourSinks(_ count: Int) -> Int {
        var sum = 0
        let receivers: [(Int) -> Void] = (0..<4).map { _ in { sum &+= $0 } }
        for value in 0..<count {
            for receiver in receivers { receiver(value) }
        }
        return sum
    }

    /// W6 and W8: one value handed to one closure per cycle.
    public static func oneValuePerCycle(_ count: Int) -> Int {
        let receive: (Int) -> Int = { $0 &+ 1 }
        var sum = 0
        for _ in 0..<count { sum &+= receive(1) }
        return sum
    }

    /// W7: drop values equal to the previous one.
    public static func removeDuplicatesRuns(_ count: Int) -> Int {
        var sum = 0
        var previous: Int?
        for index in 0..<count {
            let value = index / 3
            if value != previous { sum &+= value }
            previous = value
        }
        return sum
    }

    /// W9: the last value of every burst of ten.
    public static func debounceBursts(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count where value % 10 == 9 { sum &+= value }
        return sum
    }

    /// W10: the latest of three inputs, summed once all three have a value.
    public static func combineLatestThree(_ count: Int) -> Int {
        var latest: [Int?] = [nil, nil, nil]
        var sum = 0
        for value in 0..<count {
            latest[value % 3] = value
            if let a = latest[0], let b = latest[1], let c = latest[2] { sum &+= a &+ b &+ c }
        }
        return sum
    }
}
