import Streams
import StreamsResilience
import StreamsTesting
import Testing

/// A registry key's policy replaced while the program runs, on virtual time.
@Suite("ResilienceRegistry.replacePolicy")
struct RegistryReplacementTests {
    typealias Guarded = TestSubscriber<Int, ResilienceError<BackendError>>

    static let policy = ResiliencePolicy(
        retry: .init(maxRetries: 1, backoff: .constant(.seconds(1)), budget: .init(capacity: 50)),
        circuitBreaker: .init(failureRatio: 1, window: .count(100), minimumThroughput: 100))

    @Test func callsThatStartAfterwardsFollowTheNewPolicyAndCallsInFlightKeepTheirs() {
        let scheduler = TestScheduler()
        let registry = ResilienceRegistry(policy: Self.policy)
        let backend = ScriptedBackend([.failure(.outage)], scheduler: scheduler)
        let inFlight = Guarded()
        backend.publisher.resilient(registry, key: "api", scheduler: scheduler).subscribe(inFlight)
        #expect(backend.callCount == 1)  // its retry waits a second
        let before = registry.pipeline(for: "api")
        var tuned = registry.policy(for: "api")
        tuned.retry?.maxRetries = 3
        registry.replacePolicy(tuned, for: "api")
        #expect(registry.policy(for: "api").retry?.maxRetries == 3)
        #expect(registry.policy(for: "other").retry?.maxRetries == 1)
        scheduler.advance(by: .seconds(10))
        #expect(inFlight.failure == .upstream(.outage))
        #expect(backend.callCount == 2)
        let after = Guarded()
        backend.publisher.resilient(registry, key: "api", scheduler: scheduler).subscribe(after)
        scheduler.advance(by: .seconds(10))
        #expect(after.failure == .upstream(.outage))
        #expect(backend.callCount == 6)
        #expect(registry.pipeline(for: "api") !== before)
    }

    @Test func sharedObjectsWhoseSettingsDidNotChangeCarryOverWithTheirState() {
        let registry = ResilienceRegistry(policy: Self.policy)
        let before = registry.pipeline(for: "api")
        before.circuitBreaker?.isolate()
        _ = before.retryBudget?.withdrawRetry()
        var tuned = Self.policy
        tuned.retry?.maxRetries = 5
        registry.replacePolicy(tuned, for: "api")
        let after = registry.pipeline(for: "api")
        #expect(after.circuitBreaker === before.circuitBreaker)
        #expect(after.circuitBreaker?.currentState == .isolated)
        #expect(after.retryBudget === before.retryBudget)
        #expect(after.events.isObserved == before.events.isObserved)
        // A stage whose settings changed starts afresh.
        tuned.circuitBreaker?.minimumThroughput = 10
        registry.replacePolicy(tuned, for: "api")
        let retuned = registry.pipeline(for: "api")
        #expect(retuned.circuitBreaker !== before.circuitBreaker)
        #expect(retuned.circuitBreaker?.currentState == .closed)
        #expect(retuned.retryBudget === before.retryBudget)
    }

    @Test func aPolicyReplacedBeforeTheKeysFirstCallIsTheOneItsPipelineIsMadeFrom() {
        let registry = ResilienceRegistry(policy: Self.policy)
        var tuned = Self.policy
        tuned.retry = nil
        registry.replacePolicy(tuned, for: "api")
        #expect(registry.pipeline(for: "api").policy.retry == nil)
        #expect(registry.pipeline(for: "web").policy.retry != nil)
        // Forgetting the pipeline keeps the key's policy.
        registry.removePipeline(for: "api")
        #expect(registry.pipeline(for: "api").policy.retry == nil)
    }
}
