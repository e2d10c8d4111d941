// Measures the async face of StreamsResilience against a hand-written retry loop: one call of an
// `async` operation per iteration, through the loop (H), `ResiliencePipeline.execute` (E, and S
// with `.standardHTTP`) and `retrying(...)` (R); "1" workloads call an operation that returns at
// once, "2" workloads one that fails once and then returns. The workloads run interleaved, several
// times, and a markdown table gives the median, fastest and slowest time per call, the heap
// allocations per call and each workload's ratio to the hand-written loop with the same
// operation: the median of the per-round ratios and their range, and the ratio of the fastest
// samples.
//
//     Benchmarks/async-resilience [repetitions] [workload...]
//     async-resilience --run E1 100000     # one workload, once, for Benchmarks/async-resilience --instructions

import Dispatch
import MallocInterposerSwift

/// One row of the table.
struct Workload: Sendable {
    let name: String
    let description: String
    /// Calls per sample: enough for a sample of about 50 to 200 ms.
    let calls: Int
    /// The hand-written loop this workload is compared with.
    let reference: String
    let run: @Sendable (Int) async -> Int
}

typealias W = AsyncResilienceWorkloads

let allWorkloads: [Workload] = [
    Workload(
        name: "H1", description: "hand-written loop, operation returns at once", calls: 500_000, reference: "H1",
        run: W.handWrittenLoop(W.succeeds)),
    Workload(
        name: "E1", description: "execute, retry(3, .immediate), operation returns at once", calls: 200_000,
        reference: "H1", run: W.execute(W.succeeds)),
    Workload(
        name: "R1", description: "retrying(3, backoff: .immediate), operation returns at once", calls: 500_000,
        reference: "H1", run: W.retryingLoop(W.succeeds)),
    Workload(
        name: "S1", description: "execute, .standardHTTP, operation returns at once", calls: 10_000, reference: "H1",
        run: W.executeStandardHTTP(W.succeeds)),
    Workload(
        name: "H2", description: "hand-written loop, operation fails once", calls: 20_000, reference: "H2",
        run: W.handWrittenLoop(W.failsOnce)),
    Workload(
        name: "E2", description: "execute, retry(3, .immediate), operation fails once", calls: 20_000, reference: "H2",
        run: W.execute(W.failsOnce)),
    Workload(
        name: "R2", description: "retrying(3, backoff: .immediate), operation fails once", calls: 20_000,
        reference: "H2", run: W.retryingLoop(W.failsOnce)),
]

/// Nanoseconds per call of one sample.
func measure(_ run: (Int) async -> Int, calls: Int) async -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = await run(calls)
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    blackHole(checksum)
    return Double(elapsed) / Double(calls)
}

@inline(never)
func blackHole(_ value: Int) {
    if value == Int.min { print("") }
}

/// Heap allocations per call of one run, on every thread (the executor's and Dispatch's too), or
/// nil when the interposer is not there.
func allocations(_ run: (Int) async -> Int, calls: Int) async -> Double? {
    MallocInterposerSwift.initialize()
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    blackHole(await run(calls))
    // One allocation of its own, so that a run that allocates nothing reads 0 and an interposer
    // that is not there reads nil.
    let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    probe.deallocate()
    MallocInterposerSwift.unhook()
    let mallocs = MallocInterposerSwift.getStatistics().mallocCount
    return mallocs == 0 ? nil : Double(mallocs - 1) / Double(calls)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double?, digits: Int = 1) -> String {
    guard let value else { return "n/a" }
    if value >= 100 { return String(Int(value.rounded())) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    return String((value * scale).rounded() / scale)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--run" {
    guard arguments.count == 3, let calls = Int(arguments[2]),
        let workload = allWorkloads.first(where: { $0.name == arguments[1] })
    else {
        fatalError("usage: async-resilience --run H1|E1|R1|S1|H2|E2|R2 calls")
    }
    let run = workload.run
    waitFor { blackHole(await run(calls)) }
} else {
    let repetitions = arguments.first.flatMap(Int.init) ?? 21
    let selected = Set(arguments.dropFirst())
    waitFor { await printTable(allWorkloads, repetitions: repetitions, selected: selected) }
}

/// Runs `body` in a task on the global executor and blocks the main thread until it ends. (With
/// an `await` at the top level, the main thread would run Dispatch's main queue, which valgrind
/// does not survive.)
func waitFor(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

/// Runs the selected workloads (all when none is named), with the hand-written loops they are
/// compared with, and prints the table.
func printTable(_ allWorkloads: [Workload], repetitions: Int, selected: Set<String>) async {
    let workloads = allWorkloads.filter { workload in
        selected.isEmpty || selected.contains(workload.name)
            || allWorkloads.contains { selected.contains($0.name) && $0.reference == workload.name }
    }
    var times = [String: [Double]]()

    // Warm up once, then interleave the workloads, each round.
    for workload in workloads { blackHole(await workload.run(workload.calls / 10)) }
    for _ in 0..<repetitions {
        for workload in workloads { times[workload.name, default: []].append(await measure(workload.run, calls: workload.calls)) }
    }

    print(
        "| workload | ns/call (median) | fastest | slowest | allocs/call | /reference (median) | /reference range "
            + "| /reference (fastest) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for workload in workloads {
        let samples = times[workload.name]!
        var ratio = "n/a"
        var range = "n/a"
        var fastestRatio = "n/a"
        if workload.reference != workload.name, let reference = times[workload.reference] {
            // The samples of one round ran next to each other: their ratio cancels the machine's drift.
            let ratios = zip(samples, reference).map { $0 / $1 }
            ratio = format(median(ratios), digits: 2)
            range = "\(format(ratios.min()!, digits: 2)) to \(format(ratios.max()!, digits: 2))"
            // On a busy machine the fastest sample is the one least disturbed.
            fastestRatio = format(samples.min()! / reference.min()!, digits: 2)
        }
        let allocs = await allocations(workload.run, calls: workload.calls)
        print(
            "| \(workload.name) \(workload.description) | \(format(median(samples))) | \(format(samples.min()!)) | "
                + "\(format(samples.max()!)) | \(format(allocs, digits: 2)) | \(ratio) | \(range) | \(fastestRatio) |")
    }
}
