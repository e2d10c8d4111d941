import Foundation
import Streams
import StreamsRecovery
import Testing

@Suite("Errors that present themselves through the core's vocabulary")
struct PresentableErrorTests {
    enum UploadError: PresentableError, CategorizedError {
        case quotaExceeded, serverDown
        var presentationTitle: String { self == .quotaExceeded ? "Storage Full" : "Server Down" }
        var presentationMessage: String {
            self == .quotaExceeded ? "Your storage is full. Delete some files and try again." : "The server is down."
        }
        var origin: ErrorOrigin { self == .quotaExceeded ? .invalidUserInput : .externalSystemUnavailable }
        var category: ErrorCategory { self == .quotaExceeded ? .nonRetryable : .retryable }
    }

    @Test func theDefaultHandlerUsesTheErrorsTitleMessageAndOrigin() {
        let presentation = DefaultErrorHandler().defaultPresentation(for: UploadError.quotaExceeded)
        #expect(presentation.title == "Storage Full")
        #expect(presentation.message == "Your storage is full. Delete some files and try again.")
        #expect(presentation.source == .invalidUserInput)
        #expect(presentation.options.map(\.title) == ["OK"])
        let down = DefaultErrorHandler().defaultPresentation(for: UploadError.serverDown)
        #expect(down.title == "Server Down" && down.source == .externalSystemUnavailable)
        #expect(down.options.map(\.title) == ["Try Again", "Cancel"])
    }

    @Test func anErrorsOwnSourceAndLocalizedDescriptionComeFirst() {
        struct Both: PresentableError, ErrorSourceProviding, LocalizedError {
            var presentationTitle: String { "Title" }
            var presentationMessage: String { "presentation message" }
            var origin: ErrorOrigin { .externalSystemUnavailable }
            var source: ErrorSource { .internalInconsistency }
            var errorDescription: String? { "localized message" }
        }
        let presentation = DefaultErrorHandler().defaultPresentation(for: Both())
        #expect(presentation.source == .internalInconsistency)
        #expect(presentation.message == "localized message")
        #expect(presentation.title == "Title")
    }

    @Test(arguments: ErrorOrigin.allCases)
    func everyOriginHasTheSourceOfTheSameName(_ origin: ErrorOrigin) {
        #expect("\(ErrorSource(origin))" == "\(origin)")
    }
}
