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

    /// Watches what a retry calls out to (its `when` and `onRetry`, its scheduler's `schedule`
    /// and a subscription to its upstream, the `Deferred` closure) around one `cancel()`: how
    /// many of those calls began after `cancel()` returned, and how many had begun before but
    /// were still running then. It can also hold one call until `cancel()` has returned, so
    /// that the cancel lands inside that call.
    final class CalloutProbe: Sendable {
        enum Callout: Int, CaseIterable {
            case when, onRetry, schedule, subscribe
        }

        /// Set by the test right after `cancel()` returns.
        let cancelReturned = Atomic<Bool>(false)
        /// Per callout: its calls, and those begun after `cancel()` returned or still running then.
        let counts = Locked((calls: [0, 0, 0, 0], late: [0, 0, 0, 0]))
        /// The call to hold until `cancel()` has returned: which callout, and which of its calls.
        let hold: (callout: Callout, call: Int)?
        /// Set when the held call has begun.
        let holding = Atomic<Bool>(false)

        init(holding hold: (callout: Callout, call: Int)?) {
            self.hold = hold
        }

        var calls: [Int] { counts.withLock { $0.calls } }
        var late: [Int] { counts.withLock { $0.late } }

        /// Runs the call `body` as `callout`. `whileRunning`: a call that began before
        /// `cancel()` returned and ended after it counts too (a `schedule` counts only when it
        /// begins late: once entered, it has started the wait).
        func call<Result>(_ callout: Callout, whileRunning: Bool = true, _ body: () -> Result) -> Result {
            let beganLate = cancelReturned.load(ordering: .sequentiallyConsistent)
            let number = counts.withLock { counts in
                counts.calls[callout.rawValue] += 1
                if beganLate { counts.late[callout.rawValue] += 1 }
                return counts.calls[callout.rawValue]
            }
            if let hold, hold.callout == callout, hold.call == number {
                holding.store(true, ordering: .sequentiallyConsistent)
                spin { cancelReturned.load(ordering: .sequentiallyConsistent) }
            }
            let result = body()
            if whileRunning, !beganLate, cancelReturned.load(ordering: .sequentiallyConsistent) {
                counts.withLock { $0.late[callout.rawValue] += 1 }
            }
            return result
        }
    }

    /// A subscriber that asks for everything and keeps its subscription for the test to cancel.
    final class Catcher: Subscriber, Sendable {
        typealias Input = Int
        typealias Failure = Flaky

        let subscription = Locked<(any Subscription)?>(nil)

        func receive(subscription: any Subscription) {
            self.subscription.withLock { $0 = subscription }
            subscription.request(.unlimited)
        }

        func receive(_ input: Int) -> Subscribers.Demand { .none }

        func receive(completion: Subscribers.Completion<Flaky>) {}
    }

    /// A `DispatchQueue` whose repeating `schedule`, the one the retry waits with, goes through a
    /// ``CalloutProbe``.
    struct ProbedQueue: Scheduler, Sendable {
        typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
        typealias SchedulerOptions = DispatchQueue.SchedulerOptions

        let queue: DispatchQueue
        let probe: CalloutProbe

        var now: SchedulerTimeType { queue.now }
        var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

        func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
            queue.schedule(options: options, action)
        }

        func schedule(
            after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
            _ action: @escaping () -> Void
        ) {
            queue.schedule(after: date, tolerance: tolerance, options: options, action)
        }

        func schedule(
            after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
            options: SchedulerOptions?, _ action: @escaping () -> Void
        ) -> any Cancellable {
            probe.call(.schedule, whileRunning: false) {
                queue.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            }
        }
    }

    @Test func aCancelRacingARetryLetsAtMostTheCallUnderWayFinish() {
        // Attempts fail on global-queue threads and are retried at once through a serial
        // DispatchQueue, while the test thread cancels: in four rounds of ten inside a chosen
        // call (`when`, `onRetry`, the `Deferred` closure of a re-subscription), held there
        // until `cancel()` has returned; in the others after a varying number of attempts, at
        // whatever point the retry has reached. Once `cancel()` has returned, at most one call
        // may still run (the one under way), nothing begins after it, an attempt subscribed
        // late is never asked for values, and every retry-budget token taken paid for a retry
        // that `onRetry` announced.
        let rounds = scaled(10_000)
        let queue = DispatchQueue(label: "stress.retry.cancel")
        let holdable: [CalloutProbe.Callout] = [.when, .onRetry, .subscribe, .subscribe]
        let capacity = 1_000_000
        var overBound = 0
        var lateInHeldRounds = 0
        var lateInRacingRounds = 0
        var racingRounds = 0
        var unpaidTokens = 0
        var lateRequests = 0
        var lateBy = [Int](repeating: 0, count: CalloutProbe.Callout.allCases.count)
        for round in 0..<rounds {
            let variant = round / 10
            let hold: (callout: CalloutProbe.Callout, call: Int)? =
                round % 10 < holdable.count
                // Held in a re-subscription's closure, never the first.
                ? (holdable[round % 10], 1 + variant % 3 + (holdable[round % 10] == .subscribe ? 1 : 0)) : nil
            let probe = CalloutProbe(holding: hold)
            let upstream = FlakyUpstream()
            let budget = RetryBudget(capacity: capacity, retryCost: 1, successRefill: 0)
            let downstream = Catcher()
            let retried = Deferred { probe.call(.subscribe) { upstream } }
                .retry(
                    1_000_000,
                    when: { _ in probe.call(.when) { true } },
                    backoff: .immediate,
                    budget: budget,
                    scheduler: ProbedQueue(queue: queue, probe: probe),
                    onRetry: { _ in probe.call(.onRetry) {} }
                )
            // Subscribed on another thread: the thread that makes the first attempt also makes
            // those that come due while it is inside the upstream, and a call held there must
            // not be this thread's.
            nonisolated(unsafe) let subscribe = { retried.subscribe(downstream) }
            DispatchQueue.global().async(group: upstream.work) { subscribe() }
            if hold != nil {
                spin { probe.holding.load(ordering: .sequentiallyConsistent) }
            } else {
                racingRounds += 1
                spin { upstream.attempts.load(ordering: .sequentiallyConsistent) >= 1 + variant % 4 }
            }
            spin { downstream.subscription.withLock { $0 != nil } }
            downstream.subscription.withLock { $0 }?.cancel()
            probe.cancelReturned.store(true, ordering: .sequentiallyConsistent)
            upstream.cancelReturned.store(true, ordering: .sequentiallyConsistent)
            // Let whatever was already under way finish: retries run on `queue`, attempts
            // fail on global threads.
            queue.sync {}
            upstream.work.wait()
            queue.sync {}
            let lateCalls = probe.late
            let late = lateCalls.reduce(0, +)
            if late > 1 { overBound += 1 }
            if hold != nil { lateInHeldRounds += late } else { lateInRacingRounds += late }
            for callout in CalloutProbe.Callout.allCases { lateBy[callout.rawValue] += lateCalls[callout.rawValue] }
            if capacity - budget.available != probe.calls[CalloutProbe.Callout.onRetry.rawValue] { unpaidTokens += 1 }
            lateRequests += upstream.requestedAfterCancel.load(ordering: .relaxed)
        }
        #expect(overBound == 0)
        #expect(unpaidTokens == 0)
        #expect(lateRequests == 0)
        // In a held round the held call is the one under way, and nothing follows it: exactly
        // one late call. How many racing rounds catch a call under way depends only on timing
        // (under ThreadSanitizer on a busy machine, more than one in ten), so it is reported,
        // not checked: `overBound` already checks that none has more than that one.
        #expect(lateInHeldRounds == rounds - racingRounds)
        print(
            """
            stress: cancel racing retry(when:backoff:scheduler:): \(rounds) rounds, \(overBound) with more than one \
            call after cancel(), \(unpaidTokens) with a budget token for no retry; late calls: \(lateInHeldRounds) in \
            \(rounds - racingRounds) held rounds, \(lateInRacingRounds) in \(racingRounds) racing rounds, \
            \(lateRequests) late attempts asked for values \
            (when \(lateBy[0]), onRetry \(lateBy[1]), schedule \(lateBy[2]), subscribe \(lateBy[3]))
            """
        )
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
