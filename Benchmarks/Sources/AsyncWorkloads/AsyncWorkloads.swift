// The nearest AsyncSequence code for the workloads that have one (swift-async-algorithms and
// the standard library's AsyncStream): what a user would write instead of a publisher chain.

import AsyncAlgorithms

/// AsyncSequence versions of W1g, W2g, W3 and W7.
public enum AsyncWorkloads {
    /// W1g: a sequence -> map -> summing loop.
    public static func sequenceMap(_ count: Int) async -> Int {
        var sum = 0
        for await value in (0..<count).async.map({ $0 &* 2 }) { sum &+= value }
        return sum
    }

    /// W2g: a sequence through four (map, filter) pairs.
    public static func sequenceChain(_ count: Int) async -> Int {
        var sum = 0
        let chain = (0..<count).async
            .map { $0 &+ 1 }.filter { $0 & 1 == 0 }
            .map { $0 &+ 1 }.filter { $0 & 3 != 0 }
            .map { $0 &+ 1 }.filter { $0 >= 0 }
            .map { $0 &+ 1 }.filter { $0 >= 0 }
        for await value in chain { sum &+= value }
        return sum
    }

    /// W3: values pushed from outside (an AsyncStream, the subject's counterpart) -> map -> filter.
    public static func streamChain(_ count: Int) async -> Int {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .unbounded)
        for value in 0..<count { continuation.yield(value) }
        continuation.finish()
        var sum = 0
        for await value in stream.map({ $0 &+ 1 }).filter({ $0 & 1 == 0 }) { sum &+= value }
        return sum
    }

    /// W7: values in runs of three -> removeDuplicates.
    public static func removeDuplicatesRuns(_ count: Int) async -> Int {
        var sum = 0
        for await value in (0..<count).async.map({ $0 / 3 }).removeDuplicates() { sum &+= value }
        return sum
    }
}
