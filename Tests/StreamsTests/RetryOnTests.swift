import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("retry(on:)")
struct RetryOnTests {
    @Test func retriesEachTimeTheTriggerFires() {
        let tryAgain = PassthroughSubject<Void, Never>()
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            return attempts < 3
                ? Fail(error: .oops).eraseToAnyPublisher()
                : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(on: { _ in tryAgain.first() })
        .subscribe(subscriber)
        #expect(attempts == 1)
        tryAgain.send()
        #expect(attempts == 2)
        tryAgain.send()
        #expect(subscriber.values == [3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "RetryOn")
    }

    @Test func givesUpWithTheOriginalErrorWhenTheTriggerEnds() {
        let decisions = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .other).retry(on: { _ in decisions }).subscribe(subscriber)
        decisions.send(completion: .finished)
        #expect(subscriber.completion == .failure(.other))
    }

    @Test func aTriggerFailureAlsoGivesUp() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops).retry(on: { _ in Fail<Void, TestError>(error: .other) }).subscribe(subscriber)
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func theTriggerSeesTheError() {
        let seen = Log<TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops)
            .retry(on: { error -> Empty<Void, Never> in
                seen.append(error); return Empty()
            })
            .subscribe(subscriber)
        #expect(seen.items == [.oops])
    }

    @Test func synchronousTriggersDoNotGrowTheStack() {
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            return attempts < 10_000
                ? Fail(error: .oops).eraseToAnyPublisher()
                : Just(0).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(on: { _ in Just(()) })
        .subscribe(subscriber)
        #expect(attempts == 10_000)
        #expect(subscriber.completion == .finished)
    }

    @Test func cancelStopsTheTrigger() {
        let cancels = Log<Void>()
        let tryAgain = PassthroughSubject<Void, Never>()
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { () -> Fail<Int, TestError> in
            attempts += 1
            return Fail(error: .oops)
        }
        .retry(on: { _ in tryAgain.handleEvents(receiveCancel: { cancels.append(()) }) })
        .subscribe(subscriber)
        subscriber.cancel()
        tryAgain.send()
        #expect(attempts == 1)
        #expect(cancels.items.count == 1)
        #expect(subscriber.completion == nil)
    }

    @Test func cancellingInsideTheTriggerFactorySubscribesToNoTrigger() {
        let triggerSubscriptions = Log<Void>()
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>()
        Deferred { () -> Fail<Int, TestError> in
            attempts += 1
            return Fail(error: .oops)
        }
        .retry(on: { _ in
            subscriber.cancel()
            return Just(()).handleEvents(receiveSubscription: { _ in triggerSubscriptions.append(()) })
        })
        .subscribe(subscriber)
        #expect(triggerSubscriptions.items.isEmpty)
        #expect(attempts == 1)
        #expect(subscriber.completion == nil)
    }

    @Test func demandCarriesOver() {
        let tryAgain = PassthroughSubject<Void, Never>()
        var attempts = 0
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            let values = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
            return attempts == 1 ? values.append(Fail(error: .oops)).eraseToAnyPublisher() : values.eraseToAnyPublisher()
        }
        .retry(on: { _ in tryAgain.first() })
        .subscribe(subscriber)
        tryAgain.send()
        #expect(subscriber.values == [1, 2, 1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func theTriggerIsCancelledAfterItsValue() {
        let cancels = Log<Void>()
        let tryAgain = PassthroughSubject<Void, Never>()
        var attempts = 0
        Deferred { () -> Fail<Int, TestError> in
            attempts += 1
            return Fail(error: .oops)
        }
        .retry(on: { _ in tryAgain.handleEvents(receiveCancel: { cancels.append(()) }) })
        .subscribe(TestSubscriber<Int, TestError>())
        tryAgain.send()
        #expect(attempts == 2)
        #expect(cancels.items.count == 1)
    }

    @Test func aPendingTriggerKeepsThePipelineAlive() {
        let tryAgain = PassthroughSubject<Void, Never>()
        var attempts = 0
        let events = Log<String>()
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            return attempts == 1
                ? Fail(error: .oops).eraseToAnyPublisher() : Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        .retry(on: { _ in tryAgain.first() })
        .subscribe(ForgetfulSubscriber<Int, TestError>(events: events))
        tryAgain.send()
        #expect(events.items == ["7", "finished"])
    }

    @Test func theTriggerFactoryIsLetGoAfterCompletionAndAfterCancel() {
        for cancelling in [false, true] {
            weak var weakToken: Tracked?
            let tryAgain = PassthroughSubject<Void, Never>()
            let subscriber = TestSubscriber<Int, TestError>()
            do {
                let token = Tracked()
                weakToken = token
                Fail<Int, TestError>(error: .oops)
                    .retry(on: { _ in
                        _ = token; return tryAgain.first()
                    })
                    .subscribe(subscriber)
            }
            if cancelling {
                subscriber.cancel()
            } else {
                tryAgain.send(completion: .finished)
                #expect(subscriber.completion == .failure(.oops))
            }
            #expect(weakToken == nil)
        }
    }
}
