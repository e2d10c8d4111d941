// The independent harness: the shape of a measurement made outside this repository. The same
// workload source (Sources/IndependentWorkloads/Chains.swift) is compiled into one module per
// library, in Swift 5 language mode; this driver passes every kernel in as a closure, so no library
// sees a literal it could inline; the raw loop calls the same closures. Raw, Streams and
// OpenCombine run interleaved in one process, and the best of the repetitions is kept.
//
//     Benchmarks/independent [repetitions] [workload...]
//     Benchmarks/independent --instructions [workload...]
//
// It differs from `compare` (whose workloads see literal closures, in Swift 6 mode, and whose
// floor passes its closures through an opaque function) in how the workload reaches the library.

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IndependentOpenCombineWorkloads
import IndependentRaw
import IndependentStreamsWorkloads

/// Hands a kernel back unchanged where the optimiser cannot see it: in release builds SwiftPM lets
/// the driver inline the workload modules' functions (cross-module optimisation), which would
/// otherwise turn the kernels back into literals the loops fold. Not generic: a closure passed
/// through a generic parameter comes back wrapped in two reabstraction thunks, which would slow
/// the raw loop and the libraries alike.
@inline(never)
@_optimize(none)
func opaque(_ kernel: @escaping (Int) -> Int) -> (Int) -> Int { kernel }

/// Hands a predicate back unchanged where the optimiser cannot see it.
@inline(never)
@_optimize(none)
func opaque(_ predicate: @escaping (Int) -> Bool) -> (Int) -> Bool { predicate }

// The kernels, written once here and handed to every implementation.
let double = opaque { $0 &* 2 }
let increment = opaque { $0 &+ 1 }
let isEven = opaque { $0 & 1 == 0 }
let isNotMultipleOfFour = opaque { $0 & 3 != 0 }
let isNotNegative = opaque { $0 >= 0 }

/// One row of the table.
struct Workload {
    let name: String
    let count: Int
    let raw: (Int) -> Int
    let streams: (Int) -> Int
    let openCombine: (Int) -> Int
}

let allWorkloads: [Workload] = [
    Workload(
        name: "W1 Sequence.map (eager) -> sink", count: 1_000_000,
        raw: { RawLoops.sequenceMap($0, double) },
        streams: { IndependentStreamsWorkloads.Chains.sequenceMap($0, double) },
        openCombine: { IndependentOpenCombineWorkloads.Chains.sequenceMap($0, double) }),
    Workload(
        name: "W1g generic map -> sink", count: 1_000_000,
        raw: { RawLoops.sequenceMap($0, double) },
        streams: { IndependentStreamsWorkloads.Chains.sequenceMapGeneric($0, double) },
        openCombine: { IndependentOpenCombineWorkloads.Chains.sequenceMapGeneric($0, double) }),
    Workload(
        name: "W2 Sequence 4 x (map, filter) (eager)", count: 1_000_000,
        raw: { RawLoops.sequenceChain($0, increment, isEven, isNotMultipleOfFour, isNotNegative) },
        streams: {
            IndependentStreamsWorkloads.Chains.sequenceChain($0, increment, isEven, isNotMultipleOfFour, isNotNegative)
        },
        openCombine: {
            IndependentOpenCombineWorkloads.Chains.sequenceChain(
                $0, increment, isEven, isNotMultipleOfFour, isNotNegative)
        }),
    Workload(
        name: "W2g generic 4 x (map, filter)", count: 1_000_000,
        raw: { RawLoops.sequenceChain($0, increment, isEven, isNotMultipleOfFour, isNotNegative) },
        streams: {
            IndependentStreamsWorkloads.Chains.sequenceChainGeneric(
                $0, increment, isEven, isNotMultipleOfFour, isNotNegative)
        },
        openCombine: {
            IndependentOpenCombineWorkloads.Chains.sequenceChainGeneric(
                $0, increment, isEven, isNotMultipleOfFour, isNotNegative)
        }),
    Workload(
        name: "W3 subject -> map -> filter -> sink", count: 1_000_000,
        raw: { RawLoops.subjectChain($0, increment, isEven) },
        streams: { IndependentStreamsWorkloads.Chains.subjectChain($0, increment, isEven) },
        openCombine: { IndependentOpenCombineWorkloads.Chains.subjectChain($0, increment, isEven) }),
]

@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}

/// Nanoseconds per element of one run.
func measure(_ run: (Int) -> Int, count: Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = run(count)
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    blackHole(checksum)
    return Double(elapsed) / Double(count)
}

func format(_ value: Double) -> String {
    if value >= 100 { return String(Int(value.rounded())) }
    return String((value * 100).rounded() / 100)
}

func ratio(_ value: Double) -> String {
    String((value * 1000).rounded() / 1000)
}

// `independent --run raw|streams|opencombine workload count`: one run, for a profiler
// (`Benchmarks/independent --instructions` counts instructions per element with it).
if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "--run", let count = Int(CommandLine.arguments[4]),
    let workload = allWorkloads.first(where: { $0.name.hasPrefix(CommandLine.arguments[3] + " ") })
{
    switch CommandLine.arguments[2] {
    case "raw": blackHole(workload.raw(count))
    case "streams": blackHole(workload.streams(count))
    default: blackHole(workload.openCombine(count))
    }
    exit(0)
}

let repetitions = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 7
let selected = Set(CommandLine.arguments.dropFirst(2))
let workloads = allWorkloads.filter { selected.isEmpty || selected.contains(String($0.name.prefix { $0 != " " })) }
var rawTimes = Array(repeating: Double.infinity, count: workloads.count)
var streamsTimes = Array(repeating: Double.infinity, count: workloads.count)
var openCombineTimes = Array(repeating: Double.infinity, count: workloads.count)

// Check that the three agree, warm up once, then interleave raw, Streams, OpenCombine.
for workload in workloads {
    let expected = workload.raw(1000)
    precondition(workload.streams(1000) == expected, "\(workload.name): Streams' checksum differs from the raw loop's")
    precondition(
        workload.openCombine(1000) == expected, "\(workload.name): OpenCombine's checksum differs from the raw loop's")
    blackHole(workload.raw(workload.count / 10))
    blackHole(workload.streams(workload.count / 10))
    blackHole(workload.openCombine(workload.count / 10))
}
for _ in 0..<repetitions {
    for (index, workload) in workloads.enumerated() {
        rawTimes[index] = min(rawTimes[index], measure(workload.raw, count: workload.count))
        streamsTimes[index] = min(streamsTimes[index], measure(workload.streams, count: workload.count))
        openCombineTimes[index] = min(openCombineTimes[index], measure(workload.openCombine, count: workload.count))
    }
}

print("| workload | raw ns | Streams ns | OpenCombine ns | Streams/OpenCombine | Streams/raw |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for (index, workload) in workloads.enumerated() {
    let raw = rawTimes[index]
    let streams = streamsTimes[index]
    let openCombine = openCombineTimes[index]
    print(
        "| \(workload.name) | \(format(raw)) | \(format(streams)) | \(format(openCombine)) | "
            + "\(ratio(streams / openCombine)) | \(format(streams / max(raw, 0.01))) |")
}
