import Foundation
import Streams
import StreamsRecovery
import Testing

@Suite("Error handler chain")
struct ErrorHandlerChainTests {
    struct FormError: Error {
        let hint: String
    }

    @Test func theMostSpecificHandlerThatHandlesAnErrorWins() {
        let asked = Log<String>()
        let general = AnyErrorHandler { _ in
            asked.append("general")
            return ErrorPresentation(source: .internalInconsistency, message: "general", options: [.ok()])
        }
        let specific = AnyErrorHandler(for: FormError.self) { error in
            asked.append("specific")
            return ErrorPresentation(source: .invalidUserInput, message: error.hint, options: [.ok()])
        }
        let chain = ErrorHandlerChain([general]).prepending(specific)
        let presentation = chain.presentation(for: FormError(hint: "Names need 4 letters."))
        #expect(presentation.message == "Names need 4 letters.")
        #expect(presentation.title == "Invalid User Input")
        #expect(asked.items == ["specific"])
    }

    @Test func aHandlerThatPassesLetsTheNextOneDecide() {
        let asked = Log<String>()
        let chain = ErrorHandlerChain([
            AnyErrorHandler(for: FormError.self) { _ in
                asked.append("form")
                return nil
            },
            AnyErrorHandler { _ in
                asked.append("screen")
                return nil
            },
        ])
        let presentation = chain.presentation(for: FormError(hint: "x"))
        #expect(asked.items == ["form", "screen"])
        // Both passed: the default handler decides, by category.
        #expect(presentation.titles == ["OK"])
    }

    @Test func handlersForOtherTypesAreNotAsked() {
        let asked = Log<String>()
        let chain = ErrorHandlerChain([
            AnyErrorHandler(for: FormError.self) { _ in
                asked.append("form"); return nil
            }
        ])
        _ = chain.presentation(for: RequestError.timedOut)
        #expect(asked.items.isEmpty)
    }
}
