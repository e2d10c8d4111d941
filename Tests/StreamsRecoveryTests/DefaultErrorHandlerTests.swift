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
        #expect(presentation.title == "Please Check Your Input")
        #expect(presentation.description == "Please Check Your Input: User names need at least 4 characters. [OK (recommended)]")
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

    @Test func fatalErrorsArePresentedThenReported() {
        struct Corrupt: FatalError {}
        let reported = Log<String>()
        let handler = DefaultErrorHandler(onFatalError: { reported.append(String(describing: $0)) })
        let presentation = handler.defaultPresentation(for: Corrupt())
        #expect(presentation.titles == ["OK"])
        #expect(presentation.source == .internalInconsistency)
        #expect(reported.items.isEmpty)
        #expect(presentation.options[0].choose() == .fail)
        #expect(reported.items == ["Corrupt()"])
    }

    @Test func foundationRecoverableErrorsPresentTheirOptions() {
        struct Offline: RecoverableError {
            let attempts: Log<Int>
            var recoveryOptions: [String] { ["Go Online", "Stay Offline"] }
            func attemptRecovery(optionIndex: Int) -> Bool {
                attempts.append(optionIndex)
                return optionIndex == 0
            }
        }
        let attempts = Log<Int>()
        let presentation = handler.defaultPresentation(for: Offline(attempts: attempts))
        #expect(presentation.titles == ["Go Online", "Stay Offline"])
        #expect(presentation.options.map(\.role) == [.recommended, .normal])
        #expect(presentation.options.map { $0.choose() } == [.tryAgain, .fail])
        #expect(attempts.items == [0, 1])
    }

    @Test func everySourceHasATitle() {
        #expect(
            ErrorSource.allCases.map(\.defaultTitle) == [
                "Please Check Your Input", "Something Went Wrong", "Service Unavailable", "Unexpected Response",
            ])
    }
}
