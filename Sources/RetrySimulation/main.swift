// A fleet of clients retrying against a struggling server, on virtual time: which retry policy
// drains the backlog with the fewest calls? Prints the table in Docs/RetryAndBackoff.md.
//
//     swift run retry-simulation

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
    private var window: Int64 = -1
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
        let downUntil = Int64(downFor.components.seconds) * 1_000_000_000
        if now < downUntil {
            let remaining = Duration.nanoseconds(downUntil - now)
            return .failure(Unavailable(retryAfter: sendsRetryAfter ? remaining : nil))
        }
        let second = now / 1_000_000_000
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
                random: SeededRandomNumberGenerator(seed: seed &+ UInt64(client)))
            .sink(receiveCompletion: { completion in
                if case .failure = completion { gaveUp += 1 }
                finishedAt = max(finishedAt, scheduler.now.nanoseconds)
            }, receiveValue: { _ in })
            .store(in: &cancellables)
    }
    scheduler.run()
    return Outcome(calls: server.calls, drained: Double(finishedAt) / 1_000_000_000, gaveUp: gaveUp)
}

let clients = 1_000
print("\(clients) clients; the server is down for the first 10 s, then serves 100 requests per second.")
print("Backoff: exponential from 0.5 s, doubling, capped at 30 s, at most 50 retries.")
print("")
print("| jitter | Retry-After | budget | calls | calls per client | drained after | gave up |")
print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
func printRow(_ name: String, _ jitter: Jitter, sendsRetryAfter: Bool, budget: RetryBudget?) {
    let outcome = simulate(clients: clients, jitter: jitter, sendsRetryAfter: sendsRetryAfter, budget: budget, seed: 42)
    let perClient = Double(outcome.calls) / Double(clients)
    print("| \(name) | \(sendsRetryAfter ? "sent" : "not sent") | \(budget == nil ? "none" : "shared") | \(outcome.calls) | "
        + "\((perClient * 10).rounded() / 10) | \((outcome.drained * 10).rounded() / 10) s | \(outcome.gaveUp) |")
}
for sendsRetryAfter in [false, true] {
    for (name, jitter) in [("none", Jitter.none), ("full", .full), ("equal", .equal), ("decorrelated", .decorrelated)] {
        printRow(name, jitter, sendsRetryAfter: sendsRetryAfter, budget: nil)
    }
}
// One RetryBudget with the defaults (500 tokens, 5 a retry, 1 back a success) shared by the fleet.
for sendsRetryAfter in [false, true] {
    printRow("full", .full, sendsRetryAfter: sendsRetryAfter, budget: RetryBudget())
}
