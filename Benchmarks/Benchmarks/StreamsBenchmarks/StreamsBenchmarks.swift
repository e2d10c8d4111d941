// Allocation checks for Streams' workloads, with package-benchmark (as swift-nio does): the
// heap allocations of each workload are stored in Thresholds/ and a run that allocates more
// fails `swift package benchmark thresholds check`. Wall-clock time is reported by
// Benchmarks/compare, never checked here: it is too noisy to gate on.

import Benchmark
import StreamsWorkloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal],
        maxDuration: .seconds(1),
        maxIterations: 20,
        thresholds: [.mallocCountTotal: .init(absolute: [.p90: 0])])

    // Plain identifiers: they name the files in Thresholds/. The workloads are those of
    // Benchmarks/compare (see Docs/Performance.md), at a smaller count.
    let workloads: [(String, Int, (Int) -> Int)] = [
        ("W1_SequenceMapEager", 10_000, Workloads.sequenceMap),
        ("W1g_GenericMap", 10_000, Workloads.sequenceMapGeneric),
        ("W2_SequenceChainEager", 10_000, Workloads.sequenceChain),
        ("W2g_GenericChain", 10_000, Workloads.sequenceChainGeneric),
        ("W3_SubjectMapFilter", 10_000, Workloads.subjectChain),
        ("W4_FlatMapJust", 10_000, Workloads.flatMapJust),
        ("W5_ShareFourSinks", 10_000, Workloads.shareFourSinks),
        ("W6_SubscribeCancel", 1_000, Workloads.subscribeCancel),
        ("W7_RemoveDuplicates", 10_000, Workloads.removeDuplicatesRuns),
        ("W8_FailCatch", 1_000, Workloads.failCatch),
        ("W9_DebounceVirtualTime", 1_000, Workloads.debounceVirtualTime),
        ("W10_CombineLatestThree", 10_000, Workloads.combineLatestThree),
        ("W18_FlatMapFuture", 10_000, Workloads.flatMapFuture),
        ("W19_SubjectSubscribeCancel", 1_000, Workloads.subjectSubscribeCancel),
        ("W20_DeferredFailCatch", 1_000, Workloads.deferredFailCatch),
    ]
    for (name, count, run) in workloads {
        Benchmark(name) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(run(count))
            }
        }
    }
}
