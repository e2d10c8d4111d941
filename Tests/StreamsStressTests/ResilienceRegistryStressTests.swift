import Dispatch
import Streams
import StreamsResilience
import StreamsTesting
import Testing

@Suite("Stress: a resilience registry shared by several threads")
struct ResilienceRegistryStressTests {
    struct Outage: CategorizedError {
        var category: ErrorCategory { .retryable }
    }

    @Test func everyThreadGetsTheSamePipelinePerKey() {
        let observersMade = AtomicInt()
        let registry = ResilienceRegistry(policy: .standardHTTP) { _ in
            observersMade.add(1)
            return .none
        }
        let threads = 8
        let keys = 50
        let seen = Locked<[Int: [String: ObjectIdentifier]]>([:])
        onThreads(threads) { thread in
            var mine: [String: ObjectIdentifier] = [:]
            for round in 0..<scaled(20) {
                for index in 0..<keys {
                    let key = "host-\((index + thread + round) % keys)"
                    mine[key] = ObjectIdentifier(registry.pipeline(for: key))
                }
            }
            seen.withLock { $0[thread] = mine }
        }
        let tables = seen.withLock { Array($0.values) }
        #expect(tables.count == threads)
        for table in tables { #expect(table == tables[0]) }
        #expect(registry.keys.count == keys)
        // A pipeline made by a thread that lost a race is dropped; its observer was still made.
        #expect(observersMade.load() >= keys)
    }

    @Test func policiesReplacedWhileThreadsAskForPipelinesEndWithTheLastOne() {
        let base = ResiliencePolicy(retry: .init(maxRetries: 0, backoff: .immediate))
        let registry = ResilienceRegistry(policy: base)
        let threads = 8
        let keys = 5
        let rounds = scaled(200)
        onThreads(threads) { thread in
            for round in 0..<rounds {
                let key = "host-\((round + thread) % keys)"
                if thread.isMultiple(of: 2) {
                    var tuned = base
                    tuned.retry?.maxRetries = round
                    registry.replacePolicy(tuned, for: key)
                } else {
                    let pipeline = registry.pipeline(for: key)
                    // A pipeline is always made from a policy of this key, never a mix.
                    #expect(pipeline.policy.retry != nil)
                }
            }
        }
        // Once the threads are done, each key's pipeline follows the key's last policy.
        for index in 0..<keys {
            let key = "host-\(index)"
            #expect(registry.pipeline(for: key).policy.retry == registry.policy(for: key).retry)
        }
    }

    @Test func callsOnManyThreadsThroughSharedPipelinesReturnEveryPermit() {
        let policy = ResiliencePolicy(
            concurrencyLimit: .init(maxConcurrent: 4, maxQueued: 10_000),
            circuitBreaker: .init(failureRatio: 0.5, window: .count(20), minimumThroughput: 10, breakDuration: .seconds(1)))
        let registry = ResilienceRegistry(policy: policy)
        let threads = 8
        let calls = scaled(500)
        let unfinished = AtomicInt()
        let kept = Locked<[AnyCancellable]>([])
        onThreads(threads) { thread in
            for index in 0..<calls {
                let pipeline = registry.pipeline(for: "host-\(index % 3)")
                let fails = (thread + index).isMultiple(of: 2)
                let call = Deferred { () -> AnyPublisher<Int, Outage> in
                    fails
                        ? Fail(error: Outage()).eraseToAnyPublisher()
                        : Just(index).setFailureType(to: Outage.self).eraseToAnyPublisher()
                }
                .resilient(pipeline, scheduler: DispatchQueue.global())
                let cancels = (thread + index).isMultiple(of: 5)
                let done = AtomicInt()
                if !cancels { unfinished.add(1) }
                let cancellable = call.sink(
                    receiveCompletion: { _ in
                        if !cancels && done.exchange(1) == 0 { unfinished.add(-1) }
                    }, receiveValue: { _ in })
                if cancels { cancellable.cancel() } else { kept.withLock { $0.append(cancellable) } }
            }
        }
        spin { unfinished.load() == 0 }
        for key in registry.keys {
            #expect(registry.pipeline(for: key).concurrencyLimiter?.inUse == 0)
            #expect(registry.pipeline(for: key).concurrencyLimiter?.queued == 0)
        }
        print("stress: \(threads) threads x \(calls) calls through 3 shared pipelines; every permit came back")
    }
}
