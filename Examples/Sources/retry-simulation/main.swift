// A fleet of clients retrying against a struggling server, on virtual time: which retry policy
// drains the backlog with the fewest calls? Prints the table in Docs/RetryAndBackoff.md and,
// given a folder, writes the guide's two charts into it:
//
//     swift run --package-path Examples -c release retry-simulation Docs/images

import Foundation
import Streams
import StreamsTesting

/// The server's answer when it cannot serve a request.
struct Unavailable: CategorizedError, RetryAfterProviding {
    let retryAfter: Duration?
    var category: ErrorCategory { .retryable }
}

/// A server that is down for `downFor`, then serves at most `capacity` requests per second.
final class Server {
    let scheduler: TestScheduler
    let capacity: Int
    let downFor: Duration
    let sendsRetryAfter: Bool
    var calls = 0
    /// Calls received in each second of the run.
    var callsPerSecond: [Int] = []
    private var window = -1
    private var servedInWindow = 0

    init(scheduler: TestScheduler, capacity: Int, downFor: Duration, sendsRetryAfter: Bool) {
        self.scheduler = scheduler
        self.capacity = capacity
        self.downFor = downFor
        self.sendsRetryAfter = sendsRetryAfter
    }

    func request() -> Result<Void, Unavailable> {
        calls += 1
        let now = scheduler.now.nanoseconds
        let second = Int(now / 1_000_000_000)
        if callsPerSecond.count <= second { callsPerSecond += Array(repeating: 0, count: second + 1 - callsPerSecond.count) }
        callsPerSecond[second] += 1
        let downUntil = Int64(downFor.components.seconds) * 1_000_000_000
        if now < downUntil {
            let remaining = Duration.nanoseconds(downUntil - now)
            return .failure(Unavailable(retryAfter: sendsRetryAfter ? remaining : nil))
        }
        if second != window {
            window = second
            servedInWindow = 0
        }
        guard servedInWindow < capacity else {
            return .failure(Unavailable(retryAfter: sendsRetryAfter ? .seconds(1) : nil))
        }
        servedInWindow += 1
        return .success(())
    }
}

struct Outcome {
    let calls: Int
    let drained: Double
    let gaveUp: Int
    let callsPerSecond: [Int]
}

func simulate(clients: Int, jitter: Jitter, sendsRetryAfter: Bool, budget: RetryBudget? = nil, seed: UInt64) -> Outcome {
    let scheduler = TestScheduler()
    let server = Server(scheduler: scheduler, capacity: 100, downFor: .seconds(10), sendsRetryAfter: sendsRetryAfter)
    var finishedAt: Int64 = 0
    var gaveUp = 0
    var cancellables: [AnyCancellable] = []
    for client in 0..<clients {
        Deferred { server.request().publisher }
            .retry(
                50, backoff: .exponential(initial: .milliseconds(500), multiplier: 2, maxDelay: .seconds(30), jitter: jitter),
                retryAfterLimit: .seconds(60), budget: budget, scheduler: scheduler,
                random: SeededRandomNumberGenerator(seed: seed &+ UInt64(client))
            )
            .sink(
                receiveCompletion: { completion in
                    if case .failure = completion { gaveUp += 1 }
                    finishedAt = max(finishedAt, scheduler.now.nanoseconds)
                }, receiveValue: { _ in }
            )
            .store(in: &cancellables)
    }
    scheduler.run()
    return Outcome(
        calls: server.calls, drained: Double(finishedAt) / 1_000_000_000, gaveUp: gaveUp, callsPerSecond: server.callsPerSecond)
}

let clients = 1_000
print("\(clients) clients; the server is down for the first 10 s, then serves 100 requests per second.")
print("Backoff: exponential from 0.5 s, doubling, capped at 30 s, at most 50 retries.")
print("")
print("| jitter | Retry-After | budget | calls | calls per client | drained after | gave up |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
/// Prints one row of the table and returns the run, for the charts.
func printRow(_ name: String, _ jitter: Jitter, sendsRetryAfter: Bool, budget: RetryBudget?) -> PolicyRun {
    let outcome = simulate(clients: clients, jitter: jitter, sendsRetryAfter: sendsRetryAfter, budget: budget, seed: 42)
    let perClient = Double(outcome.calls) / Double(clients)
    let drained = (outcome.drained * 10).rounded() / 10
    print(
        "| \(name) | \(sendsRetryAfter ? "sent" : "not sent") | \(budget == nil ? "none" : "shared") | \(outcome.calls) | "
            + "\((perClient * 10).rounded() / 10) | \(drained) s | \(outcome.gaveUp) |")
    let label =
        [
            name == "none" ? "no jitter" : "\(name) jitter",
            sendsRetryAfter ? "Retry-After sent" : "Retry-After not sent",
        ] + (budget == nil ? [] : ["shared budget"])
    return PolicyRun(
        name: label.joined(separator: ", "), calls: outcome.calls, drained: drained, callsPerSecond: outcome.callsPerSecond)
}
var runs: [PolicyRun] = []
for sendsRetryAfter in [false, true] {
    for (name, jitter) in [("none", Jitter.none), ("full", .full), ("equal", .equal), ("decorrelated", .decorrelated)] {
        runs.append(printRow(name, jitter, sendsRetryAfter: sendsRetryAfter, budget: nil))
    }
}
// One RetryBudget with the defaults (500 tokens, 5 a retry, 1 back a success) shared by the fleet.
for sendsRetryAfter in [false, true] {
    runs.append(printRow("full", .full, sendsRetryAfter: sendsRetryAfter, budget: RetryBudget()))
}

if let folder = CommandLine.arguments.dropFirst().first {
    // Panels in two columns: without Retry-After on the left, with it on the right.
    let panels = zip(runs[0..<4], runs[4..<8]).flatMap { [$0, $1] } + runs[8...]
    let charts = [
        "retry-requests-per-second.svg": requestsPerSecondChart(Array(panels), seconds: 60, capacity: 100),
        "retry-calls-to-drain.svg": callsToDrainChart(runs),
    ]
    for (name, svg) in charts.sorted(by: { $0.key < $1.key }) {
        let url = URL(fileURLWithPath: folder).appendingPathComponent(name)
        try svg.write(to: url, atomically: true, encoding: .utf8)
        print("wrote \(url.path)")
    }
}
