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

    @Test func aPresentationWithoutOptionsGetsDismissInsteadOfCrashing() {
        let presentation = ErrorPresentation(source: .internalInconsistency, message: "Nothing to choose.", options: [])
        #expect(presentation.titles == ["Dismiss"])
        #expect(presentation.options[0].choose() == .fail)
    }

    @Test func aChainWhoseHandlerGivesNoOptionsWarnsAndOffersDismiss() {
        let warnings = Log<String>()
        let chain = ErrorHandlerChain(
            [AnyErrorHandler { _ in ErrorPresentation(source: .invalidUserInput, message: "Hm.", options: []) }],
            fallback: DefaultErrorHandler(warn: { warnings.append($0) }))
        let presentation = chain.presentation(for: RequestError.notFound)
        #expect(presentation.titles == ["Dismiss"])
        #expect(
            warnings.items == [#"A handler presented RequestError without options; it is offered a single "Dismiss" instead."#])
        var changed = presentation
        changed.options = []
        let emptied = changed
        let later = ErrorHandlerChain(
            [AnyErrorHandler { _ in emptied }], fallback: DefaultErrorHandler(warn: { warnings.append($0) }))
        #expect(later.presentation(for: RequestError.notFound).titles == ["Dismiss"])
        #expect(warnings.items.count == 2)
    }
}
