import Foundation
import Streams
import StreamsRecovery
import StreamsTesting
import Testing

/// The error-handling articles' own inputs, and what each says the user sees or the server
/// gets: one test per behaviour where Streams had differed.
@Suite("The articles' inputs, and what they promise")
struct ArticleBehaviourTests {
    // MARK: 1. The message from failureReason and recoverySuggestion

    @Test func theReasonAndTheSuggestionAreJoinedAsSentences() {
        struct Failed: LocalizedError {
            var failureReason: String? { "Something went wrong" }
            var recoverySuggestion: String? { "Please, try again" }
        }
        #expect(ErrorHandlerChain().presentation(for: Failed()).message == "Something went wrong. Please, try again")

        // A part that ends a sentence already gets no second mark.
        struct Punctuated: LocalizedError {
            let failureReason: String?
            var recoverySuggestion: String? { "Please, try again" }
        }
        let chain = ErrorHandlerChain()
        #expect(chain.presentation(for: Punctuated(failureReason: "It failed.")).message == "It failed. Please, try again")
        #expect(chain.presentation(for: Punctuated(failureReason: "It failed!")).message == "It failed! Please, try again")
        #expect(chain.presentation(for: Punctuated(failureReason: "  ")).message == "Please, try again")
    }

    // MARK: 2. An error without words of its own

    @Test func aPlainErrorsWordsAreOneSetting() {
        struct Plain: Error {}
        let article = DefaultErrorHandler(genericText: .plain).defaultPresentation(for: Plain())
        #expect(article.title == "Error")
        #expect(article.message == "Something bad happened. Please try again")
        let retryable = DefaultErrorHandler(genericText: .plain).defaultPresentation(for: RequestError.timedOut)
        #expect((retryable.title, retryable.message) == ("Error", "Something bad happened. Please try again"))

        // The default words it by its category; either part can be set alone.
        let byCategory = DefaultErrorHandler().defaultPresentation(for: Plain())
        #expect((byCategory.title, byCategory.message) == ("Something Went Wrong", "The request could not be completed."))
        let ownMessage = DefaultErrorHandler(genericText: GenericErrorText(message: "That did not work."))
            .defaultPresentation(for: Plain())
        #expect((ownMessage.title, ownMessage.message) == ("Something Went Wrong", "That did not work."))

        // A description alone is the message; the generic title goes above it.
        struct Described: LocalizedError {
            var errorDescription: String? { "The file could not be saved." }
        }
        let described = DefaultErrorHandler(genericText: GenericErrorText(title: "Error")).defaultPresentation(for: Described())
        #expect((described.title, described.message) == ("Error", "The file could not be saved."))

        // An error with words of its own keeps them.
        let own = DefaultErrorHandler(genericText: .plain)
            .defaultPresentation(for: SimpleError(source: .externalSystemUnavailable, message: "The server is down."))
        #expect((own.title, own.message) == ("Service Unavailable", "The server is down."))
    }

    // MARK: 3 and 4. RecoverableError's options, and "Try again" through an attempter

    /// The RecoverableError article's error: option 0 cancels; "Try again" sends the request
    /// again itself (through `send`) and reports that it could.
    struct RequestFailed: LocalizedError, RecoverableError {
        let send: @Sendable () -> Void
        var failureReason: String? { "Something went wrong" }
        var recoverySuggestion: String? { "Please, try again" }
        var recoveryOptions: [String] { ["Cancel", "Try again"] }

        func attemptRecovery(optionIndex: Int) -> Bool {
            guard optionIndex == 1 else { return false }
            send()
            return true
        }
    }

    @Test func theFirstRecoveryOptionIsTheCancelOne() {
        let presentation = ErrorHandlerChain().presentation(for: RequestFailed(send: {}))
        #expect(presentation.titles == ["Cancel", "Try again"])
        #expect(presentation.options.map(\.role) == [.cancel, .normal])
        #expect(
            presentation.description
                == "Something Went Wrong: Something went wrong. Please, try again [Cancel (cancel), Try again]")
    }

    @Test func tryAgainThroughAnAttempterIsOneRequestThroughRecoverAndThroughTheRouter() {
        // Through `recover`: the first request fails; the attempter sends one more, and the
        // pipeline does not subscribe again (a third request would succeed).
        let requests = Log<Void>()
        let subscriber = TestSubscriber<Int, RequestFailed>()
        let send: @Sendable () -> Void = { requests.append(()) }
        Deferred { () -> AnyPublisher<Int, RequestFailed> in
            send()
            return requests.items.count == 1
                ? Fail(error: RequestFailed(send: send)).eraseToAnyPublisher()
                : Just(1).setFailureType(to: RequestFailed.self).eraseToAnyPublisher()
        }
        .recover(through: ErrorHandlerChain()) { Just($0.option(titled: "Try again")!) }
        .subscribe(subscriber)
        #expect(requests.items.count == 2)
        #expect(subscriber.values.isEmpty)
        guard case .finished? = subscriber.completion else {
            Issue.record("expected a quiet finish, got \(subscriber)")
            return
        }

        // Through the router: the same one request.
        let routed = Log<Void>()
        let router = ErrorRouter { _ = $0.option(titled: "Try again")!.choose() }
        router.do { throw RequestFailed(send: { routed.append(()) }) }
        #expect(routed.items.count == 1)

        // An attempter that only prepares the retry: `recover` sends the one request.
        let prepared = Log<Void>()
        let preparing = ErrorHandlerChain(fallback: DefaultErrorHandler(recoveryAttempter: .preparesRetry))
        let retried = TestSubscriber<Int, RequestFailed>()
        Deferred { () -> AnyPublisher<Int, RequestFailed> in
            prepared.append(())
            return prepared.items.count == 1
                ? Fail(error: RequestFailed(send: {})).eraseToAnyPublisher()
                : Just(7).setFailureType(to: RequestFailed.self).eraseToAnyPublisher()
        }
        .recover(through: preparing) { Just($0.option(titled: "Try again")!) }
        .subscribe(retried)
        #expect(prepared.items.count == 2)
        #expect(retried.values == [7])
    }

    // MARK: 5. The validation title

    @Test func invalidUserInputIsTitledAsInMungoHealer() {
        let presentation = ErrorHandlerChain()
            .presentation(for: SimpleError(source: .invalidUserInput, message: "Please enter a username."))
        #expect(presentation.title == "Invalid User Input")
        #expect(presentation.message == "Please enter a username.")
        #expect(presentation.titles == ["OK"])
    }

    // MARK: 6. FatalError

    struct UnexpectedNilFatalError: FatalError, Equatable {
        let errorDescription = "An unexpected data inconsistency has occurred. App execution can not be continued."
        let source = ErrorSource.internalInconsistency
    }

    @Test func aConfirmedFatalErrorEndsTheProcessAfterTheCallback() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let handler = DefaultErrorHandler(onFatalError: { error in
                FileHandle.standardError.write(Data("reported \(type(of: error))\n".utf8))
            })
            let mungo = ErrorRouter(chain: ErrorHandlerChain(fallback: handler)) { presentation in
                _ = presentation.option(titled: "OK")!.choose()
            }
            mungo.do { throw ArticleBehaviourTests.UnexpectedNilFatalError() }
            FileHandle.standardError.write(Data("still running\n".utf8))
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let reported = errors.range(of: "reported UnexpectedNilFatalError")
        let ended = errors.range(of: "the user confirmed the fatal error UnexpectedNilFatalError")
        #expect(reported != nil && ended != nil)
        if let reported, let ended { #expect(reported.upperBound <= ended.lowerBound) }
        #expect(errors.contains("App execution can not be continued."))
        #expect(!errors.contains("still running"))
    }

    @Test func aHostThatMustNotStopKeepsRunning() {
        let reported = Log<String>()
        let handler = DefaultErrorHandler(
            onFatalError: { reported.append("\(type(of: $0))") }, whenFatalErrorIsConfirmed: .keepRunning)
        let subscriber = TestSubscriber<Int, UnexpectedNilFatalError>()
        Fail(error: UnexpectedNilFatalError())
            .recover(through: ErrorHandlerChain(fallback: handler)) { Just($0.option(titled: "OK")!) }
            .subscribe(subscriber)
        #expect(reported.items == ["UnexpectedNilFatalError"])
        #expect(subscriber.completion == .failure(UnexpectedNilFatalError()))
    }

    // The deliberate difference: a healable error without options is shown, not rejected.

    @Test func aHealableErrorWithoutOptionsGetsDismissAndAWarning() {
        let warnings = Log<String>()
        let chain = ErrorHandlerChain(fallback: DefaultErrorHandler(warn: { warnings.append($0) }))
        let presentation = chain.presentation(
            for: SimpleHealableError(source: .externalSystemUnavailable, message: "Could not connect.", healingOptions: []))
        #expect(presentation.titles == ["Dismiss"])
        #expect(warnings.items.count == 1)
    }
}
