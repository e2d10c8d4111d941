import Dispatch
import Streams
import StreamsTesting
import Testing

/// A publisher that hands its one subscriber to the test, so that the test can send it
/// subscriptions and events by hand.
private final class HandDriven<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private(set) var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
    }
}

/// Bad use either behaves as in Combine or stops with a message that names the rule.
@Suite("Bad use gets a clear message")
struct MisuseTests {
    /// Checks that the child process of an exit test printed `message` on standard error
    /// (optimised builds drop precondition messages, so only the trap is checked there).
    static func expectMessage(_ message: String, in result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
        #if DEBUG
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains(message), "standard error: \(output)", sourceLocation: sourceLocation)
        #endif
    }

    @Test func aNegativeDebounceTrapsWithItsRule() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).debounce(for: .seconds(-1), scheduler: DispatchQueue.main)
        }
        Self.expectMessage("debounce(for:) requires a dueTime of zero or more, got", in: trap)
    }

    @Test func aNegativeCollectIntervalTrapsWithItsRule() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).collect(.byTime(DispatchQueue.main, .seconds(-1)))
        }
        Self.expectMessage("collect(.byTime) requires an interval of zero or more", in: trap)
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).collect(.byTimeOrCount(DispatchQueue.main, .seconds(-1), 5))
        }
        Self.expectMessage("collect(.byTimeOrCount) requires an interval of zero or more", in: trap2)
    }

    @Test func aNegativeRepeatingIntervalOnADispatchQueueTrapsWithItsRule() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "negative interval")
            _ = queue.schedule(after: queue.now, interval: .seconds(-1)) {}
        }
        Self.expectMessage("a repeating schedule requires an interval of zero or more", in: trap)
    }

    @Test func aNegativeOutputIndexTrapsWithItsRule() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().output(at: -1)
        }
        Self.expectMessage("output(at:) requires an index of zero or more, got -1", in: trap)
        let trap2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().output(in: -5 ... -1)
        }
        Self.expectMessage("output(in:) requires positions of zero or more, got -5...-1", in: trap2)
    }

    @Test func anOptionalOutputRangeReachingIntMaxMinusOneTrapsWithItsRule() async {
        // As in Combine; a range that ends just before is accepted.
        #expect(Optional(1).publisher.output(in: 0..<(.max - 2)).output == 1)
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: 0..<(.max - 1))
        }
        Self.expectMessage(
            "output(in:) on an optional's publisher requires a range that ends before Int.max - 1, got 0..<9223372036854775806",
            in: trap)
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.none.publisher.output(in: 0...) }
        await #expect(processExitsWith: .failure) { _ = Optional(1).publisher.output(in: 3...(.max - 2)) }
    }

    @Test func theLastPossibleIndexDoesNotOverflow() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.output(at: .max).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
    }

    /// Combine cancels a second subscription sent to an operator that already has one.
    @Test func aSecondSubscriptionIsCancelled() {
        let scheduler = TestScheduler()
        func check<Output>(_ name: String, _ attach: (HandDriven<Int, Never>) -> AnyPublisher<Output, Never>) {
            let upstream = HandDriven<Int, Never>()
            let subscriber = TestSubscriber<Output, Never>()
            attach(upstream).subscribe(subscriber)
            let first = RecordingSubscription()
            let second = RecordingSubscription()
            upstream.subscriber?.receive(subscription: first)
            upstream.subscriber?.receive(subscription: second)
            #expect(second.cancels == 1, "\(name): the second subscription is cancelled")
            #expect(first.cancels == 0, "\(name): the first subscription stays")
            #expect(subscriber.subscriptionCount == 1, "\(name): the subscriber sees one subscription")
        }
        check("debounce") { $0.debounce(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher() }
        check("throttle") { $0.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher() }
        check("delay") { $0.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher() }
        check("receive(on:)") { $0.receive(on: scheduler).eraseToAnyPublisher() }
        check("timeout") { $0.timeout(.seconds(1), scheduler: scheduler).eraseToAnyPublisher() }
        check("collect(.byTime)") { $0.collect(.byTime(scheduler, .seconds(1))).eraseToAnyPublisher() }
        check("measureInterval") { $0.measureInterval(using: scheduler).eraseToAnyPublisher() }
        check("reduce") { $0.reduce(0, +).eraseToAnyPublisher() }
        check("buffer") { $0.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher() }
    }

    /// Combine ignores sends after a subject's completion, and a second completion.
    @Test func sendingAfterCompletionIsIgnored() {
        let passthrough = PassthroughSubject<Int, TestError>()
        let current = CurrentValueSubject<Int, TestError>(0)
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        passthrough.subscribe(first)
        current.subscribe(second)
        for subject in [AnySubject(passthrough), AnySubject(current)] {
            subject.send(1)
            subject.send(completion: .finished)
            subject.send(2)
            subject.send(completion: .failure(.oops))
            subject.send(completion: .finished)
        }
        #expect(first.values == [1])
        #expect(second.values == [0, 1])
        #expect(first.completions == [.finished])
        #expect(second.completions == [.finished])
        #expect(current.value == 1)
    }
}

/// The two subjects behind one face, for tests that do the same to both.
private struct AnySubject {
    let sendValue: (Int) -> Void
    let sendCompletion: (Subscribers.Completion<TestError>) -> Void

    init<S: Subject>(_ subject: S) where S.Output == Int, S.Failure == TestError {
        sendValue = { subject.send($0) }
        sendCompletion = { subject.send(completion: $0) }
    }

    func send(_ value: Int) { sendValue(value) }
    func send(completion: Subscribers.Completion<TestError>) { sendCompletion(completion) }
}
