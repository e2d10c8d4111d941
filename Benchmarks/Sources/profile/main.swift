// Runs one workload of one library, for a profiler: `Benchmarks/instructions` runs it under
// valgrind's callgrind, which counts instructions and so gives the same figures on a busy
// machine, where wall-clock times wander.
//
//     profile streams|opencombine W3 1000000
//
// W9 to W14 and W16 are Streams' only: OpenCombine has no virtual-time scheduler, no combineLatest and
// no share(replay:).

import OpenCombineWorkloads
import StreamsWorkloads

let streams: [String: (Int) -> Int] = [
    "W1": StreamsWorkloads.Workloads.sequenceMap, "W2": StreamsWorkloads.Workloads.sequenceChain,
    "W1g": StreamsWorkloads.Workloads.sequenceMapGeneric, "W2g": StreamsWorkloads.Workloads.sequenceChainGeneric,
    "W3": StreamsWorkloads.Workloads.subjectChain, "W4": StreamsWorkloads.Workloads.flatMapJust,
    "W18": StreamsWorkloads.Workloads.flatMapFuture, "W19": StreamsWorkloads.Workloads.subjectSubscribeCancel,
    "W20": StreamsWorkloads.Workloads.deferredFailCatch,
    "W5": StreamsWorkloads.Workloads.shareFourSinks, "W6": StreamsWorkloads.Workloads.subscribeCancel,
    "W7": StreamsWorkloads.Workloads.removeDuplicatesRuns, "W8": StreamsWorkloads.Workloads.failCatch,
    "W9": StreamsWorkloads.Workloads.debounceVirtualTime, "W10": StreamsWorkloads.Workloads.combineLatestThree,
    "W11": StreamsWorkloads.Workloads.shareReplayFourSinks,
    "W12": { StreamsWorkloads.Workloads.combineLatestMany($0, publishers: 10) },
    "W13": { StreamsWorkloads.Workloads.combineLatestMany($0, publishers: 1_000) },
    "W14": { StreamsWorkloads.Workloads.combineLatestMany($0, publishers: 10_000) },
    "R0": StreamsWorkloads.Workloads.resilienceBaseline, "R1": StreamsWorkloads.Workloads.closedBreakerPerValue,
    "R2": StreamsWorkloads.Workloads.idleLimiterPerValue, "R3": StreamsWorkloads.Workloads.retryPerValue,
    "R4": StreamsWorkloads.Workloads.justPerCycle, "R5": StreamsWorkloads.Workloads.hedgePerCycle,
    "R6": StreamsWorkloads.Workloads.mapPerValue,
    "W15": StreamsWorkloads.Workloads.requestShaped,
    "W16": StreamsWorkloads.Workloads.requestShapedSelectiveRetry,
    "W17": StreamsWorkloads.Workloads.debounceDispatchQueue,
    // Scaling: S2 (a send to n sinks) with 10 and 100,000 sinks; the count is of sends. S5 and S6
    // (MergeMany of 10: subscribe + cancel, per upstream; a send) count merge's set-up and value.
    "S1-10": { StreamsWorkloads.ScalingWorkloads.subjectSubscribeCancel($0, n: 10).checksum },
    "S2-10": { StreamsWorkloads.ScalingWorkloads.subjectSend($0, n: 10).checksum },
    "S2-100000": { StreamsWorkloads.ScalingWorkloads.subjectSend($0, n: 100_000).checksum },
    "S5-10": { StreamsWorkloads.ScalingWorkloads.mergeManySetUp($0, n: 10).checksum },
    "S6-10": { StreamsWorkloads.ScalingWorkloads.mergeManySend($0, n: 10).checksum },
]
let openCombine: [String: (Int) -> Int] = [
    "W1": OpenCombineWorkloads.Workloads.sequenceMap, "W2": OpenCombineWorkloads.Workloads.sequenceChain,
    "W1g": OpenCombineWorkloads.Workloads.sequenceMapGeneric,
    "W2g": OpenCombineWorkloads.Workloads.sequenceChainGeneric,
    "W3": OpenCombineWorkloads.Workloads.subjectChain, "W4": OpenCombineWorkloads.Workloads.flatMapJust,
    "W18": OpenCombineWorkloads.Workloads.flatMapFuture,
    "W19": OpenCombineWorkloads.Workloads.subjectSubscribeCancel,
    "W20": OpenCombineWorkloads.Workloads.deferredFailCatch,
    "W5": OpenCombineWorkloads.Workloads.shareFourSinks, "W6": OpenCombineWorkloads.Workloads.subscribeCancel,
    "W7": OpenCombineWorkloads.Workloads.removeDuplicatesRuns, "W8": OpenCombineWorkloads.Workloads.failCatch,
    "W15": OpenCombineWorkloads.Workloads.requestShaped,
    "W17": OpenCombineWorkloads.Workloads.debounceDispatchQueue,
    "S1-10": { OpenCombineWorkloads.ScalingWorkloads.subjectSubscribeCancel($0, n: 10).checksum },
    "S2-10": { OpenCombineWorkloads.ScalingWorkloads.subjectSend($0, n: 10).checksum },
    "S2-100000": { OpenCombineWorkloads.ScalingWorkloads.subjectSend($0, n: 100_000).checksum },
    "S5-10": { OpenCombineWorkloads.ScalingWorkloads.mergeManySetUp($0, n: 10).checksum },
    "S6-10": { OpenCombineWorkloads.ScalingWorkloads.mergeManySend($0, n: 10).checksum },
]

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]),
    let run = (arguments[1] == "streams" ? streams : openCombine)[arguments[2]]
else {
    fatalError(
        "usage: profile streams|opencombine W1|W1g|W2|W2g|W3|W4|W5|W6|W7|W8|W9 ... W20|R0...R6 (W9 to W14, W16 and R*: Streams only) count"
    )
}
if run(count) == Int.min { print("") }
