import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

@Suite("Stress: selective retry on a real queue")
struct RetryStressTests {
    struct Flaky: Error {}

    /// An upstream whose every attempt, once asked for values, answers on a global-queue
    /// thread: one value (its attempt number), then a failure. It records when each attempt was
    /// subscribed and asked for values relative to the test's cancel, and holds its subscriber
    /// only until it has answered or been cancelled.
    final class FlakyUpstream: Publisher, @unchecked Sendable {
        typealias Output = Int
        typealias Failure = Flaky

        let work = DispatchGroup()
        let attempts = Atomic<Int>(0)
        let cancelReturned = Atomic<Bool>(false)
        /// Attempts subscribed after the cancel returned that were asked for values.
        let requestedAfterCancel = Atomic<Int>(0)
        let firstFailure = DispatchSemaphore(value: 0)

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Flaky {
            let attempt = attempts.add(1, ordering: .sequentiallyConsistent).newValue
            let lateAttempt = cancelReturned.load(ordering: .sequentiallyConsistent)
            subscriber.receive(subscription: Attempt(upstream: self, subscriber: subscriber, number: attempt, late: lateAttempt))
        }

        final class Attempt<S: Subscriber>: Subscription, @unchecked Sendable where S.Input == Int, S.Failure == Flaky {
            let upstream: FlakyUpstream
            let number: Int
            let late: Bool
            let state: Locked<(subscriber: S?, requested: Bool)>

            init(upstream: FlakyUpstream, subscriber: S, number: Int, late: Bool) {
                self.upstream = upstream
                self.number = number
                self.late = late
                state = Locked((subscriber, false))
            }

            func request(_ demand: Subscribers.Demand) {
                let first = state.withLock { state -> Bool in
                    defer { state.requested = true }
                    return !state.requested && state.subscriber != nil
                }
                guard first else { return }
                if late { upstream.requestedAfterCancel.add(1, ordering: .relaxed) }
                // Handed over as a plain closure: the work item must not capture the generic type.
                nonisolated(unsafe) let answer = { self.answer() }
                DispatchQueue.global().async(group: upstream.work) { answer() }
            }

            /// Sends the attempt's number, then fails, unless cancelled meanwhile.
            func answer() {
                guard let subscriber = state.withLock({ $0.subscriber }) else { return }
                _ = subscriber.receive(number)
                guard
                    let subscriber = state.withLock({ state -> S? in
                        defer { state.subscriber = nil }
                        return state.subscriber
                    })
                else { return }
                subscriber.receive(completion: .failure(Flaky()))
                if number == 1 { upstream.firstFailure.signal() }
            }

            func cancel() {
                let released = state.withLock { state -> S? in
                    defer { state.subscriber = nil }
                    return state.subscriber
                }
                withExtendedLifetime(released) {}
            }
        }
    }

    @Test func cancelRacingTheWaitBetweenAttempts() {
        // Attempts fail on global-queue threads and are retried after a short wait on a serial
        // DispatchQueue, while the test thread cancels at varying points. After `cancel()`
        // returns: no attempt is asked for values, no value sent by a later attempt reaches the
        // sink, and once the queues are idle every closure is released.
        let rounds = scaled(300)
        let queue = DispatchQueue(label: "stress.retry")
        var lateValues = 0
        var lateRequests = 0
        var unreleased = 0
        var attemptsMade = 0
        for round in 0..<rounds {
            let upstream = FlakyUpstream()
            let received = Locked<[Int]>([])
            var witnesses: [WeakWitness] = []
            let cancellable: AnyCancellable
            do {
                let inPredicate = Witness()
                let inOnRetry = Witness()
                let inSink = Witness()
                witnesses = [WeakWitness(object: inPredicate), WeakWitness(object: inOnRetry), WeakWitness(object: inSink)]
                cancellable =
                    upstream
                    .retry(
                        1_000,
                        when: { _ in withExtendedLifetime(inPredicate) { true } },
                        backoff: .constant(.microseconds(50)),
                        scheduler: queue,
                        onRetry: { _ in withExtendedLifetime(inOnRetry) {} }
                    )
                    .sink(
                        receiveCompletion: { _ in withExtendedLifetime(inSink) {} },
                        receiveValue: { value in received.withLock { $0.append(value) } }
                    )
            }
            // Cancel after the first failure, a little later on each round.
            upstream.firstFailure.wait()
            let extraAttempts = round % 5
            spin { upstream.attempts.load(ordering: .sequentiallyConsistent) >= 1 + extraAttempts }
            cancellable.cancel()
            let attemptsAtCancel = upstream.attempts.load(ordering: .sequentiallyConsistent)
            upstream.cancelReturned.store(true, ordering: .sequentiallyConsistent)
            // Let whatever was already under way finish: the wait's timer fires on `queue`, and
            // attempts answer on global threads.
            queue.sync {}
            upstream.work.wait()
            queue.sync {}
            lateRequests += upstream.requestedAfterCancel.load(ordering: .relaxed)
            lateValues += received.withLock { $0.filter { $0 > attemptsAtCancel }.count }
            unreleased += witnesses.filter { $0.object != nil }.count
            attemptsMade += upstream.attempts.load(ordering: .relaxed)
        }
        #expect(lateRequests == 0)
        #expect(lateValues == 0)
        #expect(unreleased == 0)
        print(
            "stress: retry(when:backoff:scheduler:) on a DispatchQueue, cancel racing the wait: \(rounds) rounds, \(attemptsMade) attempts checked"
        )
    }
}
