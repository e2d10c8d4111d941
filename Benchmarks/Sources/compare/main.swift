// Runs every workload against the hand-written floor, Streams, OpenCombine and, where there is
// one, the nearest AsyncSequence code, in one process, interleaved, several times, and prints a
// markdown table of the medians.
//
//     Benchmarks/compare [repetitions] [workload...]
//
// Naming workloads (`W3`, `W1g`) runs only those, which is handy under a profiler.

import AsyncWorkloads
import Baseline
import Dispatch
import MallocInterposerSwift
import OpenCombineWorkloads
import StreamsExt
import StreamsResilience
import StreamsWorkloads

/// One row of the table.
struct Workload {
    let name: String
    let count: Int
    let unit: String
    let floor: (Int) -> Int
    let streams: (Int) -> Int
    let openCombine: ((Int) -> Int)?
    var asyncSequence: ((Int) async -> Int)? = nil
}

let allWorkloads: [Workload] = [
    Workload(
        name: "W1 Sequence.map (eager) -> sink", count: 1_000_000, unit: "element",
        floor: Baseline.sequenceMap, streams: StreamsWorkloads.Workloads.sequenceMap,
        openCombine: OpenCombineWorkloads.Workloads.sequenceMap),
    Workload(
        name: "W1g generic map -> sink", count: 1_000_000, unit: "element",
        floor: Baseline.sequenceMap, streams: StreamsWorkloads.Workloads.sequenceMapGeneric,
        openCombine: OpenCombineWorkloads.Workloads.sequenceMapGeneric, asyncSequence: AsyncWorkloads.sequenceMap),
    Workload(
        name: "W2 Sequence 4 x (map, filter) (eager)", count: 1_000_000, unit: "element",
        floor: Baseline.sequenceChain, streams: StreamsWorkloads.Workloads.sequenceChain,
        openCombine: OpenCombineWorkloads.Workloads.sequenceChain),
    Workload(
        name: "W2g generic 4 x (map, filter)", count: 1_000_000, unit: "element",
        floor: Baseline.sequenceChain, streams: StreamsWorkloads.Workloads.sequenceChainGeneric,
        openCombine: OpenCombineWorkloads.Workloads.sequenceChainGeneric, asyncSequence: AsyncWorkloads.sequenceChain),
    Workload(
        name: "W3 subject -> map -> filter -> sink", count: 1_000_000, unit: "send",
        floor: Baseline.subjectChain, streams: StreamsWorkloads.Workloads.subjectChain,
        openCombine: OpenCombineWorkloads.Workloads.subjectChain, asyncSequence: AsyncWorkloads.streamChain),
    Workload(
        name: "W4 subject -> flatMap { Just } -> sink", count: 200_000, unit: "send",
        floor: Baseline.subjectChain, streams: StreamsWorkloads.Workloads.flatMapJust,
        openCombine: OpenCombineWorkloads.Workloads.flatMapJust),
    Workload(
        name: "W18 subject -> flatMap { Future } -> sink", count: 200_000, unit: "send",
        floor: Baseline.subjectChain, streams: StreamsWorkloads.Workloads.flatMapFuture,
        openCombine: OpenCombineWorkloads.Workloads.flatMapFuture),
    Workload(
        name: "W5 subject -> share() -> 4 sinks", count: 1_000_000, unit: "send",
        floor: Baseline.shareFourSinks, streams: StreamsWorkloads.Workloads.shareFourSinks,
        openCombine: OpenCombineWorkloads.Workloads.shareFourSinks),
    Workload(
        name: "W6 subscribe + cancel Just.map.sink", count: 100_000, unit: "cycle",
        floor: Baseline.oneValuePerCycle, streams: StreamsWorkloads.Workloads.subscribeCancel,
        openCombine: OpenCombineWorkloads.Workloads.subscribeCancel),
    Workload(
        name: "W19 subscribe + send + cancel subject.map.sink", count: 100_000, unit: "cycle",
        floor: Baseline.oneValuePerCycle, streams: StreamsWorkloads.Workloads.subjectSubscribeCancel,
        openCombine: OpenCombineWorkloads.Workloads.subjectSubscribeCancel),
    Workload(
        name: "W7 subject -> removeDuplicates -> sink", count: 1_000_000, unit: "send",
        floor: Baseline.removeDuplicatesRuns, streams: StreamsWorkloads.Workloads.removeDuplicatesRuns,
        openCombine: OpenCombineWorkloads.Workloads.removeDuplicatesRuns, asyncSequence: AsyncWorkloads.removeDuplicatesRuns),
    Workload(
        name: "W8 Fail.catch { Just }.sink", count: 100_000, unit: "cycle",
        floor: Baseline.oneValuePerCycle, streams: StreamsWorkloads.Workloads.failCatch,
        openCombine: OpenCombineWorkloads.Workloads.failCatch),
    Workload(
        name: "W20 Deferred { Fail }.catch { Just }.sink", count: 100_000, unit: "cycle",
        floor: Baseline.oneValuePerCycle, streams: StreamsWorkloads.Workloads.deferredFailCatch,
        openCombine: OpenCombineWorkloads.Workloads.deferredFailCatch),
    Workload(
        name: "W15 request-shaped: Deferred { Future }.timeout.retry(3)", count: 100_000, unit: "cycle",
        floor: Baseline.requestWithTimeout, streams: StreamsWorkloads.Workloads.requestShaped,
        openCombine: OpenCombineWorkloads.Workloads.requestShaped),
    Workload(
        name: "W16 W15 with the selective retry (Streams only)", count: 100_000, unit: "cycle",
        floor: Baseline.requestWithTimeout, streams: StreamsWorkloads.Workloads.requestShapedSelectiveRetry,
        openCombine: nil),
    Workload(
        name: "W17 subject -> debounce on a DispatchQueue -> sink", count: 200_000, unit: "send",
        floor: Baseline.debounceOneTimer, streams: StreamsWorkloads.Workloads.debounceDispatchQueue,
        openCombine: OpenCombineWorkloads.Workloads.debounceDispatchQueue),
    Workload(
        name: "W9 debounce on TestScheduler (Streams only)", count: 100_000, unit: "event",
        floor: Baseline.debounceBursts, streams: StreamsWorkloads.Workloads.debounceVirtualTime,
        openCombine: nil),
    Workload(
        name: "W10 combineLatest of 3 subjects (Streams only)", count: 1_000_000, unit: "send",
        floor: Baseline.combineLatestThree, streams: StreamsWorkloads.Workloads.combineLatestThree,
        openCombine: nil),
]

/// Nanoseconds per element of one run.
func measure(_ run: (Int) -> Int, count: Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = run(count)
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    blackHole(checksum)
    return Double(elapsed) / Double(count)
}

/// Nanoseconds per element of one run of async code.
func measure(_ run: (Int) async -> Int, count: Int) async -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = await run(count)
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    blackHole(checksum)
    return Double(elapsed) / Double(count)
}

@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}

/// Heap allocations per element of one run, or nil when the interposer is not preloaded.
func allocations(_ run: (Int) -> Int, count: Int) -> Double? {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    blackHole(run(count))
    // One allocation of its own, so that a run that allocates nothing reads 0 and an interposer
    // that is not there reads nil.
    let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    probe.deallocate()
    MallocInterposerSwift.unhook()
    let mallocs = MallocInterposerSwift.getStatistics().mallocCount
    return mallocs == 0 ? nil : Double(mallocs - 1) / Double(count)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func format(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    if value >= 100 { return String(Int(value.rounded())) }
    let tenths = (value * 10).rounded() / 10
    return String(tenths)
}

let repetitions = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
let selected = Set(CommandLine.arguments.dropFirst(2))
let workloads = allWorkloads.filter { selected.isEmpty || selected.contains(String($0.name.prefix { $0 != " " })) }
var floorTimes = Array(repeating: [Double](), count: workloads.count)
var streamsTimes = Array(repeating: [Double](), count: workloads.count)
var openCombineTimes = Array(repeating: [Double](), count: workloads.count)
var asyncTimes = Array(repeating: [Double](), count: workloads.count)

// Warm up once, then interleave: floor, Streams, OpenCombine, for each workload, each round.
for workload in workloads {
    blackHole(workload.floor(workload.count / 10))
    blackHole(workload.streams(workload.count / 10))
    if let openCombine = workload.openCombine { blackHole(openCombine(workload.count / 10)) }
    if let asyncSequence = workload.asyncSequence { blackHole(await asyncSequence(workload.count / 10)) }
}
for _ in 0..<repetitions {
    for (index, workload) in workloads.enumerated() {
        floorTimes[index].append(measure(workload.floor, count: workload.count))
        streamsTimes[index].append(measure(workload.streams, count: workload.count))
        if let openCombine = workload.openCombine {
            openCombineTimes[index].append(measure(openCombine, count: workload.count))
        }
        if let asyncSequence = workload.asyncSequence {
            asyncTimes[index].append(await measure(asyncSequence, count: workload.count))
        }
    }
}

print(
    "| workload | per | floor ns | Streams ns | OpenCombine ns | AsyncSequence ns | Streams/OpenCombine | Streams/AsyncSequence | Streams/floor | Streams allocs |"
)
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
var worst = 0.0
for (index, workload) in workloads.enumerated() {
    let floor = median(floorTimes[index])
    let streams = median(streamsTimes[index])
    let openCombine = openCombineTimes[index].isEmpty ? nil : median(openCombineTimes[index])
    let asyncSequence = asyncTimes[index].isEmpty ? nil : median(asyncTimes[index])
    let ratio = openCombine.map { streams / $0 }
    let asyncRatio = asyncSequence.map { streams / $0 }
    if let ratio { worst = max(worst, ratio) }
    let allocs = allocations(workload.streams, count: workload.count)
    print(
        "| \(workload.name) | \(workload.unit) | \(format(floor)) | \(format(streams)) | \(format(openCombine)) | "
            + "\(format(asyncSequence)) | \(ratio.map { String(($0 * 100).rounded() / 100) } ?? "n/a") | "
            + "\(asyncRatio.map { String(($0 * 100).rounded() / 100) } ?? "n/a") | \(format(streams / max(floor, 0.01))) | "
            + "\(allocs.map { String(($0 * 100).rounded() / 100) } ?? "n/a") |")
}
print("worst Streams/OpenCombine ratio: \((worst * 100).rounded() / 100)")
