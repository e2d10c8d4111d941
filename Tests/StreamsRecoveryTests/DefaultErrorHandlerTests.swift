import Foundation
import Streams
import StreamsRecovery
import Testing

@Suite("Default error handler")
struct DefaultErrorHandlerTests {
    let handler = DefaultErrorHandler()

    @Test func retryableErrorsOfferTryAgainAndCancel() {
        let presentation = handler.defaultPresentation(for: RequestError.timedOut)
        #expect(presentation.titles == ["Try Again", "Cancel"])
        #expect(presentation.options.map(\.role) == [.recommended, .cancel])
        #expect(presentation.options.map { $0.choose() } == [.tryAgain, .cancel])
        #expect(presentation.source == .externalSystemUnavailable)
        #expect(presentation.title == "Service Unavailable")
        #expect(presentation.message == "The service could not be reached. Please try again.")
    }

    @Test func nonRetryableErrorsOnlyOfferOK() {
        let presentation = handler.defaultPresentation(for: RequestError.notFound)
        #expect(presentation.titles == ["OK"])
        #expect(presentation.options[0].choose() == .fail)
        #expect(presentation.title == "Something Went Wrong")
    }

    @Test func errorsWithoutACategoryAreNotRetried() {
        struct Plain: Error {}
        #expect(handler.defaultPresentation(for: Plain()).titles == ["OK"])
    }

    @Test func errorsThatRequireLogoutOfferLogOut() {
        let loggedOut = Log<Void>()
        let handler = DefaultErrorHandler(logOut: { loggedOut.append(()) })
        let presentation = handler.defaultPresentation(for: RequestError.unauthorized)
        #expect(presentation.titles == ["Log Out"])
        #expect(presentation.options[0].role == .destructive)
        #expect(presentation.title == "Signed Out")
        #expect(presentation.options[0].choose() == .fail)
        #expect(loggedOut.items.count == 1)
    }

    @Test func aLongRetryAfterMeansTryAgainCannotHelp() {
        struct Busy: CategorizedError, RetryAfterProviding {
            let retryAfter: Duration?
            var category: ErrorCategory { .retryable }
        }
        #expect(handler.defaultPresentation(for: Busy(retryAfter: .seconds(120))).titles == ["OK"])
        #expect(handler.defaultPresentation(for: Busy(retryAfter: .seconds(5))).titles == ["Try Again", "Cancel"])
    }

    @Test func theMessageIsTheLocalizedDescriptionAndTheSourceTheErrorsOwn() {
        struct TooShort: LocalizedError, ErrorSourceProviding {
            var errorDescription: String? { "User names need at least 4 characters." }
            var source: ErrorSource { .invalidUserInput }
        }
        let presentation = handler.defaultPresentation(for: TooShort())
        #expect(presentation.message == "User names need at least 4 characters.")
        #expect(presentation.source == .invalidUserInput)
        #expect(presentation.title == "Invalid User Input")
        #expect(presentation.description == "Invalid User Input: User names need at least 4 characters. [OK (recommended)]")
    }

    @Test func healableErrorsBringTheirOwnOptions() {
        struct StorageFull: HealableError, CategorizedError {
            var category: ErrorCategory { .retryable }
            var healingOptions: [RecoveryOption] {
                [RecoveryOption(title: "Free Space", role: .recommended) { .tryAgain }, .cancel("Not Now")]
            }
        }
        #expect(handler.defaultPresentation(for: StorageFull()).titles == ["Free Space", "Not Now"])
    }

    @Test func fatalErrorsShowTheirOwnMessageThenRunTheFatalHook() {
        // Declared as MungoHealer declares one: a plain `errorDescription`, no LocalizedError.
        struct UnexpectedNilFatalError: FatalError {
            let errorDescription = "An unexpected data inconsistency has occurred. App execution can not be continued."
        }
        let reported = Log<String>()
        // Kept running, so that the test can see what the hook got (the default ends the
        // process: ArticleBehaviourTests).
        let handler = DefaultErrorHandler(
            onFatalError: { reported.append(String(describing: $0)) }, whenFatalErrorIsConfirmed: .keepRunning)
        let presentation = handler.defaultPresentation(for: UnexpectedNilFatalError())
        #expect(presentation.title == "Something Went Wrong")
        #expect(presentation.message == "An unexpected data inconsistency has occurred. App execution can not be continued.")
        #expect(presentation.titles == ["OK"])
        #expect(presentation.source == .internalInconsistency)
        #expect(reported.items.isEmpty)
        #expect(presentation.options[0].choose() == .fail)
        #expect(reported.items.count == 1)
        #expect(reported.items[0].hasPrefix("UnexpectedNilFatalError("))
    }

    @Test func aLocalizedErrorGivesTheTitleFromItsDescriptionAndTheMessageFromItsReasonAndSuggestion() {
        struct UploadFailed: LocalizedError, CategorizedError {
            var category: ErrorCategory { .retryable }
            var errorDescription: String? { "Upload Failed" }
            var failureReason: String? { "The server did not answer in time." }
            var recoverySuggestion: String? { "Check your connection and try again." }
        }
        let presentation = handler.defaultPresentation(for: UploadFailed())
        #expect(presentation.title == "Upload Failed")
        #expect(presentation.message == "The server did not answer in time. Check your connection and try again.")
        #expect(presentation.titles == ["Try Again", "Cancel"])

        struct OnlyASuggestion: LocalizedError {
            var errorDescription: String? { "Not Saved" }
            var recoverySuggestion: String? { "Free some space and save again." }
        }
        let suggested = handler.defaultPresentation(for: OnlyASuggestion())
        #expect(suggested.title == "Not Saved")
        #expect(suggested.message == "Free some space and save again.")
    }

    @Test func emptyHealingOptionsFallBackToDismissWithAWarning() {
        struct Broken: HealableError, UserFacingError {
            let errorDescription = "The photo could not be saved."
            let source = ErrorSource.externalSystemUnavailable
            var healingOptions: [RecoveryOption] { [] }
        }
        let warnings = Log<String>()
        let handler = DefaultErrorHandler(warn: { warnings.append($0) })
        let presentation = handler.defaultPresentation(for: Broken())
        #expect(presentation.titles == ["Dismiss"])
        #expect(presentation.options[0].role == .cancel)
        #expect(presentation.options[0].choose() == .fail)
        #expect(presentation.message == "The photo could not be saved.")
        #expect(warnings.items == [#"Broken has no healing options; it is presented with a single "Dismiss" instead."#])
    }

    @Test func errorsThatRequireLogoutLogOutWithoutAskingByDefault() {
        let presentation = handler.defaultPresentation(for: RequestError.unauthorized)
        #expect(presentation.automaticChoice?.title == "Log Out")
        let asking = DefaultErrorHandler(whenLogoutIsRequired: .ask).defaultPresentation(for: RequestError.unauthorized)
        #expect(asking.automaticChoice == nil)
        #expect(asking.titles == ["Log Out"])
        #expect(handler.defaultPresentation(for: RequestError.timedOut).automaticChoice == nil)
    }

    @Test func theRetryAfterLimitIsTheAutomaticRetrysOne() {
        #expect(RetryAfter.defaultLimit == .seconds(60))
        #expect(handler.retryAfterLimit == RetryAfter.defaultLimit)
        struct Busy: CategorizedError, RetryAfterProviding {
            let retryAfter: Duration?
            var category: ErrorCategory { .retryable }
        }
        // 45 s is within the limit of `retry`, so it is worth trying again here too.
        #expect(handler.defaultPresentation(for: Busy(retryAfter: .seconds(45))).titles == ["Try Again", "Cancel"])
        #expect(handler.defaultPresentation(for: Busy(retryAfter: .seconds(61))).titles == ["OK"])
    }

    @Test func foundationRecoverableErrorsPresentTheirOptions() {
        struct Offline: RecoverableError {
            let attempts: Log<Int>
            var recoveryOptions: [String] { ["Stay Offline", "Go Online"] }
            func attemptRecovery(optionIndex: Int) -> Bool {
                attempts.append(optionIndex)
                return optionIndex == 1
            }
        }
        let attempts = Log<Int>()
        let presentation = handler.defaultPresentation(for: Offline(attempts: attempts))
        #expect(presentation.titles == ["Stay Offline", "Go Online"])
        #expect(presentation.options.map(\.role) == [.cancel, .normal])
        // The attempter went online itself: the pipeline ends quietly.
        #expect(presentation.options.map { $0.choose() } == [.fail, .cancel])
        #expect(attempts.items == [0, 1])
        // An attempter that only prepares: the pipeline tries again.
        let preparing = DefaultErrorHandler(recoveryAttempter: .preparesRetry)
        #expect(
            preparing.defaultPresentation(for: Offline(attempts: attempts)).options.map { $0.choose() } == [.fail, .tryAgain])
    }

    @Test func everySourceHasATitle() {
        #expect(
            ErrorSource.allCases.map(\.defaultTitle) == [
                "Invalid User Input", "Something Went Wrong", "Service Unavailable", "Unexpected Response",
            ])
    }
}
