// Runs the scaling workloads (ScalingWorkloads.swift) with 10, 1,000 and 100,000 others live,
// against Streams and OpenCombine, interleaved, and prints a markdown table of the medians: a
// cost that stays flat across a row is one that does not grow with the number of subscribers,
// upstreams or children. Then prints the heap each live `subject.map.filter.sink` subscription
// holds, in both libraries. OpenCombine 0.14 has no `MergeMany`: its S5 and S6 run a `flatMap`
// over the subjects as a sequence.
//
//     Benchmarks/scaling [repetitions]
//     Benchmarks/scaling memory        # only the heap per live subscription

import MallocInterposerSwift
import OpenCombineWorkloads
import StreamsExt
import StreamsResilience
import StreamsWorkloads

/// One row: a workload, what its cost is per, and how many operations a run makes for a
/// given number of others.
struct Row {
    let name: String
    let per: String
    let streams: Run
    let openCombine: Run
    /// The operations one run makes with `n` others live.
    let operations: (Int) -> Int
    /// What the time of one run is divided by, for `n` others and `operations`.
    var units: (_ n: Int, _ operations: Int) -> Int = { _, operations in operations }
}

/// A workload given operations and n: its checksum and nanoseconds.
typealias Run = (Int, Int) -> (checksum: Int, nanoseconds: UInt64)
typealias S = StreamsWorkloads.ScalingWorkloads
typealias O = OpenCombineWorkloads.ScalingWorkloads

/// `workload`, run against Streams.
func streams(_ workload: @escaping (Int, Int) -> StreamsWorkloads.ScalingRun) -> Run {
    {
        let run = workload($0, $1); return (run.checksum, run.nanoseconds)
    }
}

/// `workload`, run against OpenCombine.
func openCombine(_ workload: @escaping (Int, Int) -> OpenCombineWorkloads.ScalingRun) -> Run {
    {
        let run = workload($0, $1); return (run.checksum, run.nanoseconds)
    }
}

/// Enough sends that each run delivers about two million values, and at least ten.
func sendsReaching(_ n: Int) -> Int { max(10, 2_000_000 / n) }

let rows: [Row] = [
    Row(
        name: "S1 subject: subscribe + cancel one more sink", per: "cycle",
        streams: streams(S.subjectSubscribeCancel), openCombine: openCombine(O.subjectSubscribeCancel),
        operations: { _ in 20_000 }),
    Row(
        name: "S2 subject: send to n sinks", per: "sink", streams: streams(S.subjectSend),
        openCombine: openCombine(O.subjectSend),
        operations: sendsReaching, units: { n, operations in n * operations }),
    Row(
        name: "S3 share(): subscribe + cancel one more sink", per: "cycle",
        streams: streams(S.shareSubscribeCancel), openCombine: openCombine(O.shareSubscribeCancel), operations: { _ in 20_000 }),
    Row(
        name: "S4 share(): send to n sinks", per: "sink", streams: streams(S.shareSend), openCombine: openCombine(O.shareSend),
        operations: sendsReaching, units: { n, operations in n * operations }),
    Row(
        name: "S5 MergeMany of n: subscribe + cancel", per: "upstream",
        streams: streams(S.mergeManySetUp), openCombine: openCombine(O.mergeManySetUp), operations: { n in max(n, 400_000) },
        units: { n, operations in max(1, operations / n) * n }),
    Row(
        name: "S6 MergeMany of n: send through one upstream", per: "send",
        streams: streams(S.mergeManySend), openCombine: openCombine(O.mergeManySend), operations: { _ in 200_000 }),
    Row(
        name: "S7 flatMap with n children: add, send, end one more", per: "child",
        streams: streams(S.flatMapChildChurn), openCombine: openCombine(O.flatMapChildChurn), operations: { _ in 20_000 }),
    Row(
        name: "S8 flatMap with n children: send through one", per: "send",
        streams: streams(S.flatMapChildSend), openCombine: openCombine(O.flatMapChildSend), operations: { _ in 200_000 }),
]

let sizes = [10, 1_000, 100_000]
let onlyMemory = CommandLine.arguments.dropFirst().first == "memory"
let repetitions = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 3

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func format(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
}

@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}

/// Nanoseconds per unit of one run.
func perUnit(_ row: Row, _ run: Run, n: Int) -> Double {
    let operations = row.operations(n)
    let result = run(operations, n)
    blackHole(result.checksum)
    return Double(result.nanoseconds) / Double(row.units(n, operations))
}

if !onlyMemory {
    print("| workload | per | Streams n=10 | n=1,000 | n=100,000 | OpenCombine n=10 | n=1,000 | n=100,000 |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows {
        var streams = Array(repeating: [Double](), count: sizes.count)
        var openCombine = Array(repeating: [Double](), count: sizes.count)
        for _ in 0..<repetitions {
            for (index, n) in sizes.enumerated() {
                streams[index].append(perUnit(row, row.streams, n: n))
                openCombine[index].append(perUnit(row, row.openCombine, n: n))
            }
        }
        let cells = (streams + openCombine).map { format(median($0)) }
        print("| \(row.name) | \(row.per) ns | \(cells.joined(separator: " | ")) |")
    }
    print("")
}

/// Bytes of heap, and heap blocks, each of `n` live subscriptions holds.
func heapPerSubscription(_ live: (Int, () -> Void) -> Int, n: Int) -> (bytes: Int, blocks: Double) {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    var bytes = 0
    var blocks = 0
    blackHole(
        live(n) {
            let statistics = MallocInterposerSwift.getStatistics()
            bytes = statistics.mallocBytesCount - statistics.freeBytesCount
            blocks = statistics.mallocCount - statistics.freeCount
        })
    MallocInterposerSwift.unhook()
    return (bytes / n, Double(blocks) / Double(n))
}

let live = 100_000
let streamsHeap = heapPerSubscription(S.liveSubscriptions, n: live)
let openCombineHeap = heapPerSubscription(O.liveSubscriptions, n: live)
print(
    "| live subject.map.filter.sink subscriptions | Streams bytes each | OpenCombine bytes each "
        + "| Streams blocks each | OpenCombine blocks each |")
print("| --- | ---: | ---: | ---: | ---: |")
print(
    "| \(live) | \(streamsHeap.bytes) | \(openCombineHeap.bytes) | \(format(streamsHeap.blocks)) | \(format(openCombineHeap.blocks)) |"
)
