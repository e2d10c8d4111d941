// The independent harness's floor: each workload as a hand-written loop, in a module of its own
// (Swift 5 language mode, like the workloads), calling the same closures the driver hands to the
// libraries, and handing each result to a closure that adds it to a captured variable, as the
// workloads' `sink { sum &+= $0 }` does. So the loop does the user's work, and only the library
// is missing: no library can go below these numbers.

/// Hands the receiving closure back unseen, so that it escapes as the one a `sink` stores does
/// (its captured variable then lives in a box, behind a dynamic exclusivity check).
@inline(never)
@_optimize(none)
func escaping(_ receive: @escaping (Int) -> Void) -> (Int) -> Void { receive }

/// Hand-written loops over the kernels the driver passes in.
public enum RawLoops {
    /// W1 and W1g: one transform per element, summed.
    public static func sequenceMap(_ count: Int, _ transform: @escaping (Int) -> Int) -> Int {
        var sum = 0
        let receive = escaping { sum &+= $0 }
        for value in 0..<count { receive(transform(value)) }
        return sum
    }

    /// W2 and W2g: four (map, filter) pairs per element.
    public static func sequenceChain(
        _ count: Int, _ increment: @escaping (Int) -> Int, _ isEven: @escaping (Int) -> Bool,
        _ isNotMultipleOfFour: @escaping (Int) -> Bool, _ isNotNegative: @escaping (Int) -> Bool
    ) -> Int {
        var sum = 0
        let receive = escaping { sum &+= $0 }
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

    /// W3: one map and one filter per value.
    public static func subjectChain(
        _ count: Int, _ transform: @escaping (Int) -> Int, _ isIncluded: @escaping (Int) -> Bool
    ) -> Int {
        var sum = 0
        let receive = escaping { sum &+= $0 }
        for value in 0..<count {
            let mapped = transform(value)
            if isIncluded(mapped) { receive(mapped) }
        }
        return sum
    }
}
