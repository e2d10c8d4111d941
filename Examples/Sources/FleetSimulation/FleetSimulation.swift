import Streams
import StreamsResilience
import StreamsTesting

/// A fleet of clients, each with its own resilience pipeline (they are separate processes), that
/// call one backend at a steady rate while the backend goes down and comes back, on virtual time.
///
/// ```swift
/// let result = FleetSimulation().run(.standard)
/// print(result.peakDuringOutage, result.secondsToRecover ?? -1)
/// ```
public struct FleetSimulation: Sendable {
    /// The clients.
    public var clients = 100
    /// Requests each client starts per second.
    public var requestsPerClientPerSecond = 5
    /// The seconds in which the backend is down.
    public var down = 10..<40
    /// The seconds after its return over which the backend's capacity grows back.
    public var warmUp = 20
    /// The second at which the clients stop starting requests.
    public var duration = 90
    /// The seed of every client's jitter.
    public var seed: UInt64 = 42

    /// A simulation with the default fleet: 100 clients at 5 requests a second each, a backend
    /// down from 10 s to 40 s, 90 s in all.
    ///
    /// ```swift
    /// var smaller = FleetSimulation()
    /// smaller.clients = 20
    /// ```
    public init() {}

    /// The load of the fleet on a healthy backend, in requests per second.
    public var normalLoad: Int { clients * requestsPerClientPerSecond }

    /// The clients' policies compared.
    public enum Strategy: String, CaseIterable, Sendable {
        /// No retry at all: each request is one call.
        case none = "no policy"
        /// Three retries with exponential backoff from 2 s and jitter, nothing else.
        case retryOnly = "retry only"
        /// The same retries, drawing from a retry budget (500 tokens, 5 a retry, 1 back a success).
        case retryWithBudget = "retry + budget"
        /// `ResiliencePolicy.standardHTTP`: limiter, total timeout, retry with budget and jitter,
        /// circuit breaker, attempt timeout.
        case standard = "standard policy"

        /// The policy a client of this strategy uses.
        public var policy: ResiliencePolicy {
            let retry = ResiliencePolicy.standardHTTP.retry!
            switch self {
            case .none: return ResiliencePolicy()
            case .retryOnly: return .retrying(retry.maxRetries, backoff: retry.backoff)
            case .retryWithBudget: return .retrying(retry.maxRetries, backoff: retry.backoff, budget: retry.budget)
            case .standard: return .standardHTTP
            }
        }
    }

    /// Runs the fleet with every client following `strategy`.
    ///
    /// Each client runs on a virtual clock of its own (its pending timers stay few, so the run
    /// stays quick); the clocks advance together in steps of 10 ms, client after client, and the
    /// backend counts calls by the second they arrive in.
    public func run(_ strategy: Strategy) -> FleetResult {
        let backend = FleetBackend(normalLoad: normalLoad, down: down, warmUp: warmUp)
        let outcomes = FleetOutcomes(seconds: duration)
        var schedulers: [TestScheduler] = []
        var cancellables: [AnyCancellable] = []
        let interval = 1_000_000_000 / requestsPerClientPerSecond
        for client in 0..<clients {
            let scheduler = TestScheduler()
            schedulers.append(scheduler)
            var policy = strategy.policy
            policy.jitterSeed = seed &+ UInt64(client)
            let pipeline = ResiliencePipeline(policy)
            let request = Deferred { backend.call(at: scheduler.now).publisher }.resilient(pipeline, scheduler: scheduler)
            // Clients are spread evenly over the first interval.
            let offset = interval / clients * client
            let timer = scheduler.schedule(
                after: scheduler.now.advanced(by: .nanoseconds(offset)), interval: .nanoseconds(interval)
            ) {
                let second = Int(scheduler.now.nanoseconds / 1_000_000_000)
                guard second < duration else { return }
                request.sink(
                    receiveCompletion: { completion in
                        if case .failure = completion { outcomes.record(failedAt: second) }
                    },
                    receiveValue: { _ in outcomes.record(succeededAt: second) }
                )
                .store(in: &cancellables)
            }
            cancellables.append(AnyCancellable(timer))
        }
        let step = 10_000_000
        let end = (duration + 60) * 1_000_000_000
        for now in stride(from: step, through: end, by: step) {
            for scheduler in schedulers { scheduler.advance(to: VirtualTime(nanoseconds: Int64(now))) }
        }
        cancellables.removeAll()
        return FleetResult(
            strategy: strategy, normalLoad: normalLoad, down: down, received: Array(backend.received.prefix(duration)),
            backendFailed: Array(backend.failed.prefix(duration)), succeeded: outcomes.succeeded, failed: outcomes.failed)
    }
}

/// The outcome of each request, by the second it started in.
final class FleetOutcomes {
    var succeeded: [Int]
    var failed: [Int]

    init(seconds: Int) {
        succeeded = Array(repeating: 0, count: seconds)
        failed = Array(repeating: 0, count: seconds)
    }

    func record(succeededAt second: Int) { succeeded[second] += 1 }
    func record(failedAt second: Int) { failed[second] += 1 }
}
