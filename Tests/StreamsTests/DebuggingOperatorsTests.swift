import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("assertNoFailure, breakpoint, makeConnectable, measureInterval")
struct DebuggingOperatorsTests {
    @Test func assertNoFailurePassesValuesAndFinished() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).assertNoFailure().subscribe(subscriber)
        // Pass-through, as in Combine: the downstream sees the upstream's own subscription.
        #expect(subscriber.events == [.subscription("[1, 2]"), .value(1), .value(2), .completion(.finished)])
    }

    @Test func assertNoFailureStopsOnAFailure() async {
        await #expect(processExitsWith: .failure) {
            _ = Fail<Int, TestError>(error: .oops).assertNoFailure("must not fail: ").sink { _ in }
        }
    }

    @Test func breakpointPassesEverythingOnWhileTheConditionsAreFalse() {
        let subscriber = TestSubscriber<Int, TestError>()
        [1, 2].publisher.setFailureType(to: TestError.self).append(Fail(error: .oops))
            .breakpoint(receiveSubscription: { _ in false }, receiveOutput: { $0 > 5 }, receiveCompletion: { _ in false })
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func breakpointOnErrorTrapsOnAFailure() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            _ = Fail<Int, TestError>(error: .oops).breakpointOnError().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
    }

    @Test func makeConnectableWaitsForConnect() {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.makeConnectable()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        subject.send(1)
        let connection = shared.connect()
        subject.send(2)
        connection.cancel()
        subject.send(3)
        #expect(first.values == [2])
        #expect(second.values == [2])
    }

    @Test func measureIntervalTimesTheGaps() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<TestScheduler.SchedulerTimeType.Stride, Never>()
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { subject.send("a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) { subject.send("b") }
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [.seconds(1), .seconds(2)])
    }
}
