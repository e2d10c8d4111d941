import Foundation
import Streams
import StreamsRecovery
import StreamsTesting
import Testing

@Suite("recover(through:presenter:)")
struct RecoverTests {
    /// A request that fails `failures` times with `error`, then sends 42; each attempt answers
    /// 100 ms after it starts.
    func request(
        failing failures: Int, with error: RequestError = .timedOut, on scheduler: TestScheduler,
        attempts: Log<TestScheduler.SchedulerTimeType>
    ) -> AnyPublisher<Int, RequestError> {
        Deferred { () -> AnyPublisher<Int, RequestError> in
            attempts.append(scheduler.now)
            let answer: AnyPublisher<Int, RequestError> =
                attempts.items.count <= failures
                ? Fail(error: error).eraseToAnyPublisher()
                : Just(42).setFailureType(to: RequestError.self).eraseToAnyPublisher()
            return answer.delay(for: .milliseconds(100), scheduler: scheduler).eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    @Test func aScriptedUserTriesAgainThenCancels() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let shown = Log<String>()
        let answers = ["Try Again", "Cancel"]
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 5, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { presentation in
                let answer = answers[shown.items.count]
                shown.append("\(scheduler.now) \(presentation)")
                // The user reads for a second, then taps.
                return Just(presentation.option(titled: answer)!).delay(for: .seconds(1), scheduler: scheduler)
            }
            .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(100))
        #expect(
            shown.items == [
                "t=100ms Service Unavailable: The service could not be reached. Please try again. [Try Again (recommended), Cancel (cancel)]"
            ])
        scheduler.advance(by: .seconds(1))
        #expect(attempts.items.map(\.description) == ["t=0s", "t=1.1s"])
        scheduler.advance(by: .milliseconds(100))
        #expect(shown.items.count == 2)
        #expect(shown.items.last?.hasPrefix("t=1.2s Service Unavailable") == true)
        scheduler.advance(by: .seconds(1))
        #expect(attempts.items.count == 2)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func tryingAgainCanSucceed() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 1, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { Just($0.option(titled: "Try Again")!) }
            .subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.values == [42])
        #expect(subscriber.completion == .finished)
        #expect(attempts.items.count == 2)
    }

    @Test func anyOtherChoiceLetsTheErrorThrough() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 1, with: .notFound, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { presentation in
                #expect(presentation.titles == ["OK"])
                return Just(presentation.options[0])
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.completion == .failure(.notFound))
        #expect(attempts.items.count == 1)
    }

    @Test func aPresenterThatEndsWithoutAnAnswerLetsTheErrorThrough() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 1, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { _ in Empty<RecoveryOption, Never>() }
            .subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.completion == .failure(.timedOut))
    }

    @Test func theChainDecidesWhatIsPresented() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let subscriber = TestSubscriber<Int, RequestError>()
        let custom = AnyErrorHandler(for: RequestError.self) { _ in
            ErrorPresentation(source: .externalSystemUnavailable, message: "Offline.", options: [.cancel("Dismiss")])
        }
        request(failing: 1, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain().prepending(custom)) { presentation in
                #expect(presentation.titles == ["Dismiss"])
                return Just(presentation.options[0])
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.completion == .finished)
    }

    @Test func cancellingWhileTheUserDecidesEndsEverything() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let answer = PassthroughSubject<RecoveryOption, Never>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 5, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { _ in answer }
            .subscribe(subscriber)
        scheduler.advance(by: .milliseconds(100))
        subscriber.cancel()
        answer.send(.tryAgain())
        scheduler.run()
        #expect(attempts.items.count == 1)
        #expect(subscriber.events.count == 1)
    }
}
