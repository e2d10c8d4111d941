import Dispatch
import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("retryWhen(_:)")
struct RetryWhenTriggerTests {
    private struct Elsewhere: Error {}

    @Test func eachTriggerValueResubscribesAndFailuresReachTheHandler() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let failures = Log<TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { errors in
            errors.handleEvents(receiveOutput: { failures.append($0) }).map { _ in () }
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.fail()
        #expect(upstream.subscriptions.count == 2)
        #expect(subscriber.completion == nil)
        upstream.send(2)
        upstream.finish()
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.finished])
        #expect(failures.items == [.oops])
        #expect(String(describing: subscriber.subscription!) == "RetryWhen")
    }

    @Test func theHandlerRunsOncePerSubscription() {
        let calls = Log<Int>()
        let retried = Fail<Int, TestError>(error: .oops).retryWhen { errors in
            calls.append(1)
            return errors.prefix(2).map { _ in () }
        }
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        retried.subscribe(first)
        retried.subscribe(second)
        #expect(calls.items.count == 2)
        #expect(first.completions == [.finished])
        #expect(second.completions == [.finished])
    }

    @Test func theTriggerFinishingFinishesTheStreamAndCancelsTheAttempt() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = PassthroughSubject<Void, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        upstream.send(1)
        trigger.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func theTriggerFailingFailsTheStream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = PassthroughSubject<Void, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        upstream.fail()
        trigger.send(completion: .failure(.other))
        #expect(subscriber.completions == [.failure(.other)])
        #expect(upstream.subscriptions.count == 1)
    }

    @Test func aTriggerFailureOfAnotherTypeFinishesTheStream() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Void, Elsewhere>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        trigger.send(completion: .failure(Elsewhere()))
        #expect(subscriber.completions == [.finished])
    }

    @Test func aFailureTheTriggerIgnoresLeavesTheStreamWaiting() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.completion == nil)
        #expect(upstream.subscriptions.count == 1)
        trigger.send(())
        #expect(upstream.subscriptions.count == 2)
    }

    @Test func theUpstreamFinishingFinishesAndCancelsTheTrigger() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = ManualUpstream<Void, Never>(failure: nil) { _ in () }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        #expect(trigger.subscriptions.last?.requests == [.unlimited])
        upstream.finish()
        #expect(subscriber.completions == [.finished])
        #expect(trigger.subscriptions.last?.cancels == 1)
    }

    @Test func aTriggerValueWhileAnAttemptRunsReplacesIt() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        trigger.send(())
        #expect(upstream.subscriptions.count == 2)
        #expect(upstream.subscriptions.first?.cancels == 1)
    }

    @Test func demandNotMetGoesToTheNextAttempt() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        upstream.retryWhen { $0.map { _ in () } }.subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(3)])
        upstream.send(1)
        upstream.fail()
        #expect(upstream.subscriptions.last?.requests == [.max(2)])
        subscriber.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.max(2), .max(1)])
    }

    @Test func noValueGoesDownstreamWithoutDemand() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.retryWhen { $0.map { _ in () } }.subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [])
        upstream.send(1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelCancelsTheAttemptAndTheTrigger() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let trigger = ManualUpstream<Void, Never>(failure: nil) { _ in () }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in trigger }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        #expect(trigger.subscriptions.last?.cancels == 1)
        trigger.send(0)
        #expect(upstream.subscriptions.count == 1)
    }

    @Test func anUpstreamThatFailsAtOnceIsRetriedInALoopNotByRecursion() {
        let attempts = Log<Int>()
        let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
            attempts.append(1)
            guard attempts.items.count == 20_000 else { return Fail(error: .oops).eraseToAnyPublisher() }
            return Just(42).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { $0.map { _ in () } }.subscribe(subscriber)
        #expect(attempts.items.count == 20_000)
        #expect(subscriber.values == [42])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aTriggerThatFinishesAtOnceEndsTheStreamBeforeAnyAttempt() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.retryWhen { _ in Empty<Void, Never>() }.subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.isEmpty)
    }

    @Test func aCancelFromInsideTheDownstreamStopsEverything() {
        let upstream = PassthroughSubject<Int, TestError>()
        var cancellable: AnyCancellable?
        var received: [Int] = []
        cancellable = upstream.retryWhen { $0.map { _ in () } }.sink(
            receiveCompletion: { _ in },
            receiveValue: { value in
                received.append(value)
                cancellable?.cancel()
            })
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        upstream.send(3)
        #expect(received == [1])
        _ = cancellable
    }

    @Test func aTriggerFinishingDuringADeliveryWaitsForItToReturn() {
        let upstream = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<Void, TestError>()
        let events = Log<String>()
        let cancellable = upstream.retryWhen { _ in trigger }.sink(
            receiveCompletion: { events.append($0 == .finished ? "finished" : "failed") },
            receiveValue: { value in
                events.append("value \(value)")
                trigger.send(completion: .finished)
                events.append("returned")
            })
        upstream.send(1)
        #expect(events.items == ["value 1", "returned", "finished"])
        _ = cancellable
    }

    @Test func valuesAndATriggerFromOtherThreadsNeverOverlap() {
        for _ in 0..<100 {
            let upstream = PassthroughSubject<Int, TestError>()
            let trigger = PassthroughSubject<Void, TestError>()
            let detector = OverlapDetector()
            let completions = Locked(0)
            let cancellable = upstream.retryWhen { _ in trigger }.sink(
                receiveCompletion: { _ in detector.run { completions.withLock { $0 += 1 } } },
                receiveValue: { _ in detector.run() })
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<100 { upstream.send(value) }
                } else {
                    trigger.send(completion: .finished)
                }
            }
            #expect(detector.overlaps == 0)
            #expect(completions.withLock { $0 } == 1)
            cancellable.cancel()
        }
    }
}
