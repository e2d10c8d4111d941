// The scaling workloads: the cost of one operation (a subscribe and cancel, a send, a child
// added and ended) while `n` other subscribers, upstreams or children are live, so that a cost
// that grows with `n` shows. Like Workloads.swift, this one file is compiled against Streams
// and against OpenCombine. Each workload times only its measured loop, not the set-up of the
// `n` others nor their teardown, and returns the checksum and the nanoseconds it took.

import Dispatch

#if STREAMS
import Streams
#else
import OpenCombine
#endif

/// What a scaling workload measured.
public struct ScalingRun {
    /// A value derived from the work, so that the optimiser cannot drop it.
    public let checksum: Int
    /// The nanoseconds the measured loop took.
    public let nanoseconds: UInt64
}

/// The scaling workloads. `operations` is how many times the measured operation runs; `n` is
/// how many others are live meanwhile.
public enum ScalingWorkloads {
    /// Runs `body` and times it.
    @inline(__always)
    static func timed(_ body: () -> Int) -> ScalingRun {
        let start = DispatchTime.now().uptimeNanoseconds
        let checksum = body()
        return ScalingRun(checksum: checksum, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
    }

    /// All of `subjects` merged: `MergeMany`; OpenCombine 0.14 has none, so there the nearest
    /// it has, a `flatMap` over the subjects as a sequence.
    static func merged(_ subjects: [PassthroughSubject<Int, Never>]) -> some Publisher<Int, Never> {
        #if STREAMS
        Publishers.MergeMany(subjects)
        #else
        subjects.publisher.flatMap { $0 }
        #endif
    }

    /// With `n` sinks on `publisher` (`subject` or a publisher made from it), subscribes one more
    /// sink and cancels it, `operations` times.
    static func subscribeCancelOneMore<P: Publisher<Int, Never>>(
        to publisher: P, of subject: PassthroughSubject<Int, Never>, _ operations: Int, n: Int
    ) -> ScalingRun {
        var sum = 0
        let others = (0..<n).map { _ in publisher.sink { sum &+= $0 } }
        let run = timed {
            for _ in 0..<operations {
                let cancellable = publisher.sink { sum &+= $0 }
                cancellable.cancel()
            }
            return sum
        }
        // The completion lets every subscriber go at once; cancelling them one by one would
        // measure the teardown, not the operation.
        subject.send(completion: .finished)
        withExtendedLifetime(others) {}
        return run
    }

    /// With `n` sinks on `publisher` (`subject` or a publisher made from it), sends `operations`
    /// values to `subject`.
    static func sendToAll<P: Publisher<Int, Never>>(
        through publisher: P, of subject: PassthroughSubject<Int, Never>, _ operations: Int, n: Int
    ) -> ScalingRun {
        var sum = 0
        let others = (0..<n).map { _ in publisher.sink { sum &+= $0 } }
        let run = timed {
            for value in 0..<operations { subject.send(value) }
            return sum
        }
        subject.send(completion: .finished)
        withExtendedLifetime(others) {}
        return run
    }

    /// S1: with `n` sinks on a `PassthroughSubject`, subscribes one more sink and cancels it.
    public static func subjectSubscribeCancel(_ operations: Int, n: Int) -> ScalingRun {
        let subject = PassthroughSubject<Int, Never>()
        return subscribeCancelOneMore(to: subject, of: subject, operations, n: n)
    }

    /// S2: a send to a `PassthroughSubject` with `n` sinks; reported per subscriber.
    public static func subjectSend(_ operations: Int, n: Int) -> ScalingRun {
        let subject = PassthroughSubject<Int, Never>()
        return sendToAll(through: subject, of: subject, operations, n: n)
    }

    /// S3: with `n` sinks on a subject's `share()`, subscribes one more sink and cancels it.
    public static func shareSubscribeCancel(_ operations: Int, n: Int) -> ScalingRun {
        let subject = PassthroughSubject<Int, Never>()
        return subscribeCancelOneMore(to: subject.share(), of: subject, operations, n: n)
    }

    /// S4: a send through `share()` to `n` sinks; reported per sink.
    public static func shareSend(_ operations: Int, n: Int) -> ScalingRun {
        let subject = PassthroughSubject<Int, Never>()
        return sendToAll(through: subject.share(), of: subject, operations, n: n)
    }

    /// S5: subscribes to `MergeMany` of `n` subjects (`merged(_:)`) and cancels; `operations` counts upstreams,
    /// so that the cost is reported per upstream (at least one whole merge runs).
    public static func mergeManySetUp(_ operations: Int, n: Int) -> ScalingRun {
        let subjects = (0..<n).map { _ in PassthroughSubject<Int, Never>() }
        var sum = 0
        return timed {
            for _ in 0..<max(1, operations / n) {
                let cancellable = merged(subjects).sink { sum &+= $0 }
                cancellable.cancel()
            }
            return sum
        }
    }

    /// S6: a send through one of the `n` upstreams of a `MergeMany`, in turn.
    public static func mergeManySend(_ operations: Int, n: Int) -> ScalingRun {
        let subjects = (0..<n).map { _ in PassthroughSubject<Int, Never>() }
        var sum = 0
        let cancellable = merged(subjects).sink { sum &+= $0 }
        let run = timed {
            for value in 0..<operations { subjects[value % n].send(value) }
            return sum
        }
        cancellable.cancel()
        return run
    }

    /// Runs `measure` on a `flatMap` of subjects into a sink that sums into `sum`, with `n`
    /// live inner subjects (`live`) sent through `outer`; cancels afterwards.
    static func withFlatMapChildren(
        _ n: Int,
        _ measure: (
            _ outer: PassthroughSubject<PassthroughSubject<Int, Never>, Never>,
            _ live: [PassthroughSubject<Int, Never>], _ sum: () -> Int
        ) -> ScalingRun
    ) -> ScalingRun {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        var sum = 0
        let cancellable = outer.flatMap { $0 }.sink { sum &+= $0 }
        let live = (0..<n).map { _ in PassthroughSubject<Int, Never>() }
        for child in live { outer.send(child) }
        let run = measure(outer, live) { sum }
        cancellable.cancel()
        return run
    }

    /// S7: with `n` live inner subjects in a `flatMap`, adds one more, sends a value through it
    /// and completes it.
    public static func flatMapChildChurn(_ operations: Int, n: Int) -> ScalingRun {
        withFlatMapChildren(n) { outer, _, sum in
            timed {
                for value in 0..<operations {
                    let child = PassthroughSubject<Int, Never>()
                    outer.send(child)
                    child.send(value)
                    child.send(completion: .finished)
                }
                return sum()
            }
        }
    }

    /// S8: a value through one of the `n` live inner subjects of a `flatMap`, in turn.
    public static func flatMapChildSend(_ operations: Int, n: Int) -> ScalingRun {
        withFlatMapChildren(n) { _, live, sum in
            timed {
                for value in 0..<operations { live[value % n].send(value) }
                return sum()
            }
        }
    }

    /// M1: keeps `n` `subject.map.filter.sink` subscriptions live and calls `probe` while they
    /// are, so that the caller can read how much heap they hold.
    public static func liveSubscriptions(_ n: Int, probe: () -> Void) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellables = (0..<n).map { _ in subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { sum &+= $0 } }
        probe()
        subject.send(2)
        subject.send(completion: .finished)
        withExtendedLifetime(cancellables) {}
        return sum
    }
}
