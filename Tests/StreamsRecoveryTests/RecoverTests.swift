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

    @Test func tryAgainIsOneNewAttemptAfterTheAutomaticRetries() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let shown = Log<String>()
        let answers = ["Try Again", "Cancel"]
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 100, on: scheduler, attempts: attempts)
            .retry(3, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .recover(through: ErrorHandlerChain()) { presentation in
                defer { shown.append(scheduler.now.description) }
                return Just(presentation.option(titled: answers[shown.items.count])!)
            }
            .subscribe(subscriber)
        scheduler.run()
        // 4 automatic attempts (0, 1.1, 2.2, 3.3 s); the tap makes one more (at 3.4 s), not 4.
        #expect(attempts.items.map(\.description) == ["t=0s", "t=1.1s", "t=2.2s", "t=3.3s", "t=3.4s"])
        #expect(shown.items == ["t=3.4s", "t=3.5s"])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func tryAgainCanRunTheAutomaticRetriesAgain() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let answers = Log<String>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 100, on: scheduler, attempts: attempts)
            .retry(3, backoff: .immediate, scheduler: scheduler)
            .recover(through: ErrorHandlerChain(), tryAgain: .withAutomaticRetries) { presentation in
                let answer = answers.items.isEmpty ? "Try Again" : "Cancel"
                answers.append(answer)
                return Just(presentation.option(titled: answer)!)
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(attempts.items.count == 8)
        #expect(subscriber.completion == .finished)
    }

    @Test func tryAgainThroughAMinimumDurationIsStillOneAttemptAndStillHeld() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let answers = Log<String>()
        let subscriber = TestSubscriber<Int, RequestError>()
        request(failing: 100, on: scheduler, attempts: attempts)
            .retry(2, backoff: .immediate, scheduler: scheduler)
            .minimumDuration(.seconds(1), scheduler: scheduler)
            .recover(through: ErrorHandlerChain()) { presentation in
                let answer = answers.items.isEmpty ? "Try Again" : "Cancel"
                answers.append("\(scheduler.now) \(answer)")
                return Just(presentation.option(titled: answer)!)
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(attempts.items.map(\.description) == ["t=0s", "t=100ms", "t=200ms", "t=1s"])
        #expect(answers.items == ["t=1s Try Again", "t=2s Cancel"])
    }

    @Test func cancelIsToldApartFromSuccessAfterAsResult() {
        let scheduler = TestScheduler()
        let attempts = Log<TestScheduler.SchedulerTimeType>()
        let cancelled = TestSubscriber<Result<Int, RecoveryError<RequestError>>, Never>()
        request(failing: 1, on: scheduler, attempts: attempts)
            .recover(through: ErrorHandlerChain()) { Just($0.option(titled: "Cancel")!) }
            .asResult()
            .subscribe(cancelled)
        let succeeded = TestSubscriber<Result<Int, RecoveryError<RequestError>>, Never>()
        request(failing: 0, on: scheduler, attempts: Log())
            .recover(through: ErrorHandlerChain()) { Just($0.option(titled: "Cancel")!) }
            .asResult()
            .subscribe(succeeded)
        let failed = TestSubscriber<Result<Int, RecoveryError<RequestError>>, Never>()
        request(failing: 1, with: .notFound, on: scheduler, attempts: Log())
            .recover(through: ErrorHandlerChain()) { Just($0.options[0]) }
            .asResult()
            .subscribe(failed)
        scheduler.run()
        #expect(cancelled.values == [.failure(.cancelled)])
        #expect(succeeded.values == [.success(42)])
        #expect(failed.values == [.failure(.failed(.notFound))])
        #expect([cancelled, succeeded, failed].map(\.completion) == [.finished, .finished, .finished])
    }

    @Test func anErrorThatRequiresLogoutLogsOutWithoutAsking() {
        let scheduler = TestScheduler()
        let loggedOut = Log<TestScheduler.SchedulerTimeType>()
        let asked = Log<String>()
        let subscriber = TestSubscriber<Int, RequestError>()
        let chain = ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { loggedOut.append(scheduler.now) }))
        request(failing: 1, with: .unauthorized, on: scheduler, attempts: Log())
            .recover(through: chain) { presentation in
                asked.append(presentation.title)
                return Just(presentation.options[0])
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(asked.items.isEmpty)
        #expect(loggedOut.items.map(\.description) == ["t=100ms"])
        #expect(subscriber.completion == .failure(.unauthorized))
    }

    @Test func loggingOutCanBeLeftToTheUser() {
        let scheduler = TestScheduler()
        let loggedOut = Log<Void>()
        let asked = Log<String>()
        let subscriber = TestSubscriber<Int, RequestError>()
        let chain = ErrorHandlerChain(
            fallback: DefaultErrorHandler(logOut: { loggedOut.append(()) }, whenLogoutIsRequired: .ask))
        request(failing: 1, with: .unauthorized, on: scheduler, attempts: Log())
            .recover(through: chain) { presentation in
                asked.append(presentation.description)
                return Just(presentation.options[0])
            }
            .subscribe(subscriber)
        scheduler.run()
        #expect(asked.items == ["Signed Out: Your session has ended. Please sign in again. [Log Out (destructive)]"])
        #expect(loggedOut.items.count == 1)
    }
}
