import Foundation
import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("ResilienceRegistry")
struct ResilienceRegistryTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    static let policy = ResiliencePolicy(
        retry: .init(maxRetries: 2, backoff: .constant(.seconds(1)), budget: .init(capacity: 50)),
        circuitBreaker: .init(failureRatio: 0.5, window: .count(10), minimumThroughput: 4, breakDuration: .seconds(5)))

    @Test func oneKeyOnePipeline() {
        let registry = ResilienceRegistry(policy: Self.policy)
        let first = registry.pipeline(for: "a.example.com")
        #expect(registry.pipeline(for: "a.example.com") === first)
        let other = registry.pipeline(for: "b.example.com")
        #expect(other !== first)
        #expect(other.circuitBreaker !== first.circuitBreaker)
        #expect(other.retryBudget !== first.retryBudget)
        #expect(registry.keys == ["a.example.com", "b.example.com"])
    }

    @Test func oneFailingHostDoesNotTripAnother() {
        let scheduler = TestScheduler()
        let registry = ResilienceRegistry(policy: Self.policy)
        let down = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let up = ScriptedBackend([.value], scheduler: scheduler)
        var results: [Guarded] = []
        for _ in 0..<3 {
            let toDown = Guarded()
            down.publisher.resilient(registry.pipeline(for: "down"), scheduler: scheduler).subscribe(toDown)
            let toUp = Guarded()
            up.publisher.resilient(registry.pipeline(for: "up"), scheduler: scheduler).subscribe(toUp)
            results.append(toUp)
            scheduler.advance(by: .seconds(10))
        }
        #expect(registry.pipeline(for: "down").circuitBreaker?.currentState == .open)
        #expect(registry.pipeline(for: "down").retryBudget?.available ?? 0 < 50)
        #expect(registry.pipeline(for: "up").circuitBreaker?.currentState == .closed)
        #expect(registry.pipeline(for: "up").retryBudget?.available == 50)
        #expect(results.map(\.values) == [[1], [1], [1]])
    }

    @Test func urlsAreKeyedByHostAndPort() {
        let registry = ResilienceRegistry(policy: Self.policy)
        let plain = registry.pipeline(forHostOf: URL(string: "https://api.example.com/users/1")!)
        #expect(registry.pipeline(forHostOf: URL(string: "https://api.example.com/orders")!) === plain)
        #expect(registry.pipeline(forHostOf: URL(string: "https://api.example.com:8443/users")!) !== plain)
        #expect(registry.keys == ["api.example.com", "api.example.com:8443"])
    }

    @Test func eachKeyGetsItsOwnObserver() {
        let scheduler = TestScheduler()
        let told = Locked<[String]>([])
        let registry = ResilienceRegistry(policy: .retrying(1, backoff: .constant(.seconds(1)))) { key in
            ResilienceEvents { event in
                if case .retryScheduled = event { told.withLock { $0.append(key) } }
            }
        }
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        for key in ["a", "b", "a"] {
            backend.publisher.resilient(registry.pipeline(for: key), scheduler: scheduler).subscribe(Guarded())
        }
        scheduler.advance(by: .seconds(5))
        #expect(told.withLock { $0 } == ["a", "b", "a"])
    }

    @Test func aRemovedKeyStartsAfresh() {
        let registry = ResilienceRegistry(policy: Self.policy)
        let old = registry.pipeline(for: "a")
        old.circuitBreaker?.isolate()
        registry.removePipeline(for: "a")
        #expect(registry.keys.isEmpty)
        let fresh = registry.pipeline(for: "a")
        #expect(fresh !== old)
        #expect(fresh.circuitBreaker?.currentState == .closed)
        #expect(old.circuitBreaker?.currentState == .isolated)
    }
}
