// The independent harness's workloads: written as a client would write them, in a module of its
// own, in Swift 5 language mode, with every kernel handed in by the driver as a closure parameter
// (so the optimiser sees opaque `@escaping` closures, not literals it can inline). This one file
// is compiled twice, into IndependentStreamsWorkloads (with STREAMS defined) and into
// IndependentOpenCombineWorkloads; only the import differs. Each workload returns a checksum.

#if STREAMS
import Streams
#else
import OpenCombine
#endif

/// The workloads, each run over `count` elements.
public enum Chains {
    /// W1: `Publishers.Sequence` -> map -> sink (Combine's eager `Sequence.map`).
    public static func sequenceMap(_ count: Int, _ transform: @escaping (Int) -> Int) -> Int {
        var sum = 0
        let cancellable = (0..<count).publisher.map(transform).sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W1g: the same chain through a generic publisher, so `Publishers.Map` runs.
    public static func sequenceMapGeneric(_ count: Int, _ transform: @escaping (Int) -> Int) -> Int {
        mapThenSink((0..<count).publisher, transform)
    }

    @inline(never)
    static func mapThenSink<P: Publisher>(_ publisher: P, _ transform: @escaping (Int) -> Int) -> Int
    where P.Output == Int, P.Failure == Never {
        var sum = 0
        let cancellable = publisher.map(transform).sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W2: a sequence through four (map, filter) pairs (`Sequence`'s eager overloads).
    public static func sequenceChain(
        _ count: Int, _ increment: @escaping (Int) -> Int, _ isEven: @escaping (Int) -> Bool,
        _ isNotMultipleOfFour: @escaping (Int) -> Bool, _ isNotNegative: @escaping (Int) -> Bool
    ) -> Int {
        var sum = 0
        let step1 = (0..<count).publisher.map(increment).filter(isEven)
        let step2 = step1.map(increment).filter(isNotMultipleOfFour)
        let step3 = step2.map(increment).filter(isNotNegative)
        let step4 = step3.map(increment).filter(isNotNegative)
        let cancellable = step4.sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W2g: the same four (map, filter) pairs through a generic publisher.
    public static func sequenceChainGeneric(
        _ count: Int, _ increment: @escaping (Int) -> Int, _ isEven: @escaping (Int) -> Bool,
        _ isNotMultipleOfFour: @escaping (Int) -> Bool, _ isNotNegative: @escaping (Int) -> Bool
    ) -> Int {
        chainThenSink((0..<count).publisher, increment, isEven, isNotMultipleOfFour, isNotNegative)
    }

    @inline(never)
    static func chainThenSink<P: Publisher>(
        _ publisher: P, _ increment: @escaping (Int) -> Int, _ isEven: @escaping (Int) -> Bool,
        _ isNotMultipleOfFour: @escaping (Int) -> Bool, _ isNotNegative: @escaping (Int) -> Bool
    ) -> Int where P.Output == Int, P.Failure == Never {
        var sum = 0
        let cancellable =
            publisher
            .map(increment).filter(isEven)
            .map(increment).filter(isNotMultipleOfFour)
            .map(increment).filter(isNotNegative)
            .map(increment).filter(isNotNegative)
            .sink { sum &+= $0 }
        cancellable.cancel()
        return sum
    }

    /// W3: `PassthroughSubject.send` -> map -> filter -> sink.
    public static func subjectChain(
        _ count: Int, _ transform: @escaping (Int) -> Int, _ isIncluded: @escaping (Int) -> Bool
    ) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map(transform).filter(isIncluded).sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }
}
