import StreamsRecovery
import Testing

@Suite("Error presentation")
struct ErrorPresentationTests {
    @Test func theTitleDefaultsToTheSources() {
        let presentation = ErrorPresentation(source: .externalSystemBehavedUnexpectedly, message: "Odd answer.", options: [.ok()])
        #expect(presentation.title == "Unexpected Response")
        let titled = ErrorPresentation(
            source: .externalSystemBehavedUnexpectedly, title: "Hm", message: "Odd answer.", options: [.ok()])
        #expect(titled.title == "Hm")
    }

    @Test func optionsAreFoundByTitle() {
        let presentation = ErrorPresentation(
            source: .externalSystemUnavailable, message: "Down.", options: [.tryAgain(), .cancel()])
        #expect(presentation.option(titled: "Cancel")?.role == .cancel)
        #expect(presentation.option(titled: "Later") == nil)
    }

    @Test func aPresentationWithoutOptionsIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = ErrorPresentation(source: .internalInconsistency, message: "Nothing to choose.", options: [])
        }
    }
}
