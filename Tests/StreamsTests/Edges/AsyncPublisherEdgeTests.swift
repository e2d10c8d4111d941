@testable import Streams
import StreamsTesting
import Testing

/// A publisher that keeps the subscribers it is given, so that a test sends them the
/// subscription and the events by hand.
private final class HandDriven<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private(set) var subscribers: [AnySubscriber<Output, Failure>] = []
    private(set) var cancellables: [any Cancellable] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribers.append(AnySubscriber(subscriber))
        if let cancellable = subscriber as? any Cancellable {
            cancellables.append(cancellable)
        }
    }
}

/// Which `values` a test reads.
enum ValuesForm: CaseIterable, Sendable {
    /// `AsyncPublisher`, for a publisher that never fails.
    case nonThrowing
    /// `AsyncThrowingPublisher`.
    case throwing
}

/// What one call to `next()` gave.
private enum Outcome: Equatable, Sendable {
    case value(Int)
    case end
    case threw(String)
}

/// Yields until `condition` holds, at most a fixed number of times; whether it held.
private func yieldUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// An iterator of `values` over a hand-driven upstream, the bridge behind it, and the
/// subscription the upstream hands it.
private struct Fixture<Failure: Error>: Sendable {
    let upstream: HandDriven<Int, Failure>
    let subscription = RecordingSubscription()
    let bridge: AsyncBridge<Int, Failure>
    /// Calls `next()` on a copy of the iterator (which also keeps the iterator alive).
    let nextOnACopy: @Sendable () async throws -> Int?

    private init(
        upstream: HandDriven<Int, Failure>,
        bridge: AsyncBridge<Int, Failure>,
        next: @escaping @Sendable () async throws -> Int?,
        subscribed: Bool
    ) {
        self.upstream = upstream
        self.bridge = bridge
        self.nextOnACopy = next
        if subscribed { subscribe() }
    }

    /// Over `AsyncThrowingPublisher`.
    static func throwing(subscribed: Bool = true) -> Self {
        let upstream = HandDriven<Int, Failure>()
        let iterator = upstream.values.makeAsyncIterator()
        // Each task works on its own copy; the copies share the bridge, which is thread-safe.
        nonisolated(unsafe) let shared = iterator
        return Self(
            upstream: upstream,
            bridge: iterator.owner.bridge,
            next: {
                var copy = shared
                return try await copy.next()
            },
            subscribed: subscribed
        )
    }

    var subscriber: AnySubscriber<Int, Failure> { upstream.subscribers[0] }

    func subscribe() {
        subscriber.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand {
        subscriber.receive(value)
    }

    func complete(_ completion: Subscribers.Completion<Failure>) {
        subscriber.receive(completion: completion)
    }

    /// Cancels the subscriber itself (the bridge is `Cancellable`).
    func cancel() {
        upstream.cancellables[0].cancel()
    }

    /// One call to `next()` in the test's own task.
    func call() async -> Outcome {
        do {
            return try await nextOnACopy().map(Outcome.value) ?? .end
        } catch {
            return .threw("\(error)")
        }
    }

    /// Starts a task that calls `next()` once, and returns once that call waits.
    func startCall(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Task<Outcome, Never> {
        let waiting = bridge.waitingCount
        let task = Task { await call() }
        try #require(await yieldUntil { bridge.waitingCount == waiting + 1 }, sourceLocation: sourceLocation)
        return task
    }

    /// Starts `count` waiting calls, one after the other.
    func startCalls(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Task<Outcome, Never>] {
        var tasks: [Task<Outcome, Never>] = []
        for _ in 0..<count {
            tasks.append(try await startCall(sourceLocation: sourceLocation))
        }
        return tasks
    }
}

extension Fixture where Failure == Never {
    /// Over `AsyncPublisher` or `AsyncThrowingPublisher`.
    static func make(_ form: ValuesForm, subscribed: Bool = true) -> Self {
        switch form {
        case .throwing:
            return throwing(subscribed: subscribed)
        case .nonThrowing:
            let upstream = HandDriven<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            nonisolated(unsafe) let shared = iterator
            return Self(
                upstream: upstream,
                bridge: iterator.owner.bridge,
                next: {
                    var copy = shared
                    return await copy.next()
                },
                subscribed: subscribed
            )
        }
    }
}

/// The outcomes of `tasks`, in order.
private func outcomes(_ tasks: [Task<Outcome, Never>]) async -> [Outcome] {
    var outcomes: [Outcome] = []
    for task in tasks {
        outcomes.append(await task.value)
    }
    return outcomes
}

/// A failure that is an object, to see when it is let go.
private final class ObjectFailure: Error, @unchecked Sendable {}

/// Holds an object weakly.
private final class Weak<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
}

@Suite("values: concurrent next(), demand, completion and cancellation at the edges")
struct AsyncPublisherEdgeTests {
    // MARK: One subscriber per iterator, shared by its copies

    @Test(arguments: ValuesForm.allCases)
    func concurrentCallsEachWaitAndAreServedInOrder(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        #expect(fixture.upstream.subscribers.count == 1)
        let calls = try await fixture.startCalls(3)
        for value in [10, 20, 30] {
            #expect(fixture.send(value) == .none)
        }
        #expect(await outcomes(calls) == [.value(10), .value(20), .value(30)])
        #expect(fixture.bridge.waitingCount == 0)
        #expect(fixture.upstream.subscribers.count == 1)
    }

    // MARK: Demand

    @Test(arguments: ValuesForm.allCases)
    func eachCallWhileSubscribedAsksForOneValueAtOnce(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        let calls = try await fixture.startCalls(3)
        // Each call asks right after it starts waiting.
        try #require(await yieldUntil { fixture.subscription.requests.count == 3 })
        #expect(fixture.subscription.requests == [.max(1), .max(1), .max(1)])
        fixture.complete(.finished)
        _ = await outcomes(calls)
    }

    @Test(arguments: ValuesForm.allCases)
    func callsBeforeTheSubscriptionAreAskedForAtOnceWhenItArrives(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form, subscribed: false)
        let calls = try await fixture.startCalls(3)
        fixture.subscribe()
        #expect(fixture.subscription.requests == [.max(3)])
        for value in [1, 2, 3] {
            fixture.send(value)
        }
        #expect(await outcomes(calls) == [.value(1), .value(2), .value(3)])
    }

    @Test(arguments: ValuesForm.allCases)
    func aSubscriptionWithNoCallWaitingIsNotAsked(form: ValuesForm) async {
        let fixture = Fixture<Never>.make(form)
        #expect(fixture.subscription.requests.isEmpty)
        fixture.complete(.finished)
        #expect(await fixture.call() == .end)
        #expect(fixture.subscription.requests.isEmpty)
    }

    @Test(arguments: ValuesForm.allCases)
    func aSecondSubscriptionIsCancelled(form: ValuesForm) async {
        let fixture = Fixture<Never>.make(form)
        let second = RecordingSubscription()
        fixture.subscriber.receive(subscription: second)
        #expect(second.cancels == 1)
        #expect(fixture.subscription.cancels == 0)
    }

    // MARK: Values

    @Test func aValueNobodyAskedForTraps() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Fixture<Never>.make(.nonThrowing).send(1)
        }
        MisuseTests.expectMessage("Received an output without requesting demand", in: trap)
        let throwingTrap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let fixture = Fixture<TestError>.throwing()
            let call = try await fixture.startCall()
            fixture.send(1)
            _ = await call.value
            fixture.send(2)
        }
        MisuseTests.expectMessage("Received an output without requesting demand", in: throwingTrap)
    }

    @Test(arguments: ValuesForm.allCases)
    func aValueBeforeTheSubscriptionEndsTheWaitingCallsOnly(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form, subscribed: false)
        let early = try await fixture.startCalls(2)
        #expect(fixture.send(1) == .none)
        #expect(await outcomes(early) == [.end, .end])
        // The iterator still works: a later call waits for the subscription.
        let later = try await fixture.startCall()
        fixture.subscribe()
        fixture.send(2)
        #expect(await later.value == .value(2))
    }

    /// Combine still asks the late subscription for the calls that a value before it had
    /// already ended; Streams asks only for the calls still waiting.
    @Test(arguments: ValuesForm.allCases)
    func aLateSubscriptionIsAskedOnlyForTheCallsStillWaiting(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form, subscribed: false)
        let early = try await fixture.startCalls(2)
        fixture.send(1)
        _ = await outcomes(early)
        let later = try await fixture.startCall()
        fixture.subscribe()
        #expect(fixture.subscription.requests == [.max(1)])
        fixture.complete(.finished)
        #expect(await later.value == .end)
    }

    @Test(arguments: ValuesForm.allCases)
    func aValueAfterTheCompletionIsIgnored(form: ValuesForm) async {
        let fixture = Fixture<Never>.make(form)
        fixture.complete(.finished)
        #expect(fixture.send(1) == .none)
        #expect(await fixture.call() == .end)
        #expect(fixture.subscription.requests.isEmpty)
    }

    // MARK: .finished

    @Test(arguments: ValuesForm.allCases)
    func finishingEndsEveryWaitingCallAndLaterCallsAtOnce(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        let calls = try await fixture.startCalls(3)
        fixture.complete(.finished)
        #expect(await outcomes(calls) == [.end, .end, .end])
        try #require(await yieldUntil { fixture.subscription.requests.count == 3 })
        #expect(await fixture.call() == .end)
        #expect(fixture.subscription.requests.count == 3)
        #expect(fixture.subscription.cancels == 0)
    }

    @Test func aSecondCompletionChangesNothing() async throws {
        let fixture = Fixture<TestError>.throwing()
        fixture.complete(.finished)
        fixture.complete(.failure(.oops))
        #expect(await fixture.call() == .end)

        let failed = Fixture<TestError>.throwing()
        let call = try await failed.startCall()
        failed.complete(.failure(.oops))
        failed.complete(.failure(.other))
        #expect(await call.value == .threw("oops"))
        #expect(await failed.call() == .end)
    }

    // MARK: Failure

    @Test func aFailureIsThrownByTheOldestWaitingCallAndEndsTheOthers() async throws {
        let fixture = Fixture<TestError>.throwing()
        let calls = try await fixture.startCalls(3)
        fixture.complete(.failure(.oops))
        #expect(await outcomes(calls) == [.threw("oops"), .end, .end])
        #expect(await fixture.call() == .end)
    }

    @Test func aFailureWithNoCallWaitingIsThrownByTheNextCallThenNilFollows() async {
        let fixture = Fixture<TestError>.throwing()
        fixture.complete(.failure(.oops))
        #expect(await fixture.call() == .threw("oops"))
        #expect(await fixture.call() == .end)
        #expect(fixture.subscription.requests.isEmpty)
    }

    @Test func theFailureIsLetGoOnceThrown() async {
        let fixture = Fixture<ObjectFailure>.throwing()
        let failure = Weak<ObjectFailure>()
        do {
            let error = ObjectFailure()
            failure.object = error
            fixture.complete(.failure(error))
        }
        #expect(failure.object != nil)
        _ = await fixture.call()
        #expect(failure.object == nil)
    }

    @Test func aFailureBeforeTheSubscriptionIsHandledTheSameAndTheLateSubscriptionCancelled() async throws {
        let waited = Fixture<TestError>.throwing(subscribed: false)
        let calls = try await waited.startCalls(2)
        waited.complete(.failure(.oops))
        #expect(await outcomes(calls) == [.threw("oops"), .end])
        waited.subscribe()
        #expect(waited.subscription.cancels == 1)
        #expect(waited.subscription.requests.isEmpty)

        let kept = Fixture<TestError>.throwing(subscribed: false)
        kept.complete(.failure(.oops))
        kept.subscribe()
        #expect(kept.subscription.cancels == 1)
        #expect(await kept.call() == .threw("oops"))
        #expect(await kept.call() == .end)
        #expect(kept.subscription.requests.isEmpty)
    }

    @Test(arguments: ValuesForm.allCases)
    func finishingBeforeTheSubscriptionEndsTheWaitingCallsAndTheLateSubscriptionIsCancelled(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form, subscribed: false)
        let calls = try await fixture.startCalls(2)
        fixture.complete(.finished)
        #expect(await outcomes(calls) == [.end, .end])
        fixture.subscribe()
        #expect(fixture.subscription.cancels == 1)
        #expect(fixture.subscription.requests.isEmpty)
        #expect(await fixture.call() == .end)
    }

    // MARK: Cancellation

    @Test(arguments: ValuesForm.allCases)
    func cancellingOneWaitingTaskEndsEveryWaitingCall(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        let calls = try await fixture.startCalls(3)
        calls[1].cancel()
        #expect(await outcomes(calls) == [.end, .end, .end])
        #expect(fixture.subscription.cancels == 1)
        #expect(await fixture.call() == .end)
        try #require(await yieldUntil { fixture.subscription.requests.count == 3 })
        #expect(fixture.subscription.requests.count == 3)
    }

    @Test(arguments: ValuesForm.allCases)
    func cancellingTheSubscriberEndsEveryWaitingCallAndCancelsUpstreamOnce(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        let calls = try await fixture.startCalls(2)
        fixture.cancel()
        fixture.cancel()
        #expect(await outcomes(calls) == [.end, .end])
        #expect(fixture.subscription.cancels == 1)
        #expect(await fixture.call() == .end)
        // A subscription that arrives after the cancel is cancelled.
        let late = RecordingSubscription()
        fixture.subscriber.receive(subscription: late)
        #expect(late.cancels == 1)
    }

    @Test(arguments: ValuesForm.allCases)
    func cancellingBeforeTheSubscriptionCancelsTheLateOne(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form, subscribed: false)
        let calls = try await fixture.startCalls(2)
        calls[0].cancel()
        #expect(await outcomes(calls) == [.end, .end])
        fixture.subscribe()
        #expect(fixture.subscription.cancels == 1)
        #expect(fixture.subscription.requests.isEmpty)
    }

    @Test(arguments: ValuesForm.allCases)
    func anAlreadyCancelledTaskEndsTheOtherWaitingCalls(form: ValuesForm) async throws {
        let fixture = Fixture<Never>.make(form)
        let waiting = try await fixture.startCall()
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await fixture.call()
        }
        #expect(await cancelled.value == .end)
        #expect(await waiting.value == .end)
        #expect(fixture.subscription.cancels == 1)
    }

    @Test func cancellingAfterTheCompletionSendsNothingUpstream() async throws {
        let finished = Fixture<TestError>.throwing()
        finished.complete(.finished)
        finished.cancel()
        #expect(finished.subscription.cancels == 0)

        // A kept failure is dropped by the cancel: later calls return nil.
        let failed = Fixture<ObjectFailure>.throwing()
        let failure = Weak<ObjectFailure>()
        do {
            let error = ObjectFailure()
            failure.object = error
            failed.complete(.failure(error))
        }
        failed.cancel()
        #expect(failure.object == nil)
        #expect(failed.subscription.cancels == 0)
        #expect(await failed.call() == .end)
    }
}
