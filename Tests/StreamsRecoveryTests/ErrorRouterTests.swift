import Foundation
import Streams
import StreamsRecovery
import Testing

@Suite("Errors that describe themselves, and the error router")
struct ErrorRouterTests {
    struct PasswordValidationError: UserFacingError {
        let errorDescription = "Your password confirmation didn't match your password. Please try again."
        let source = ErrorSource.invalidUserInput
    }

    /// A router whose presenter records what it was asked to show.
    func router(_ chain: ErrorHandlerChain = ErrorHandlerChain()) -> (ErrorRouter, Log<ErrorPresentation>) {
        let shown = Log<ErrorPresentation>()
        return (ErrorRouter(chain: chain) { shown.append($0) }, shown)
    }

    @Test func aUserFacingErrorGivesItsSourcesTitleAndItsMessage() {
        let presentation = ErrorHandlerChain().presentation(for: PasswordValidationError())
        #expect(presentation.title == "Invalid User Input")
        #expect(presentation.message == "Your password confirmation didn't match your password. Please try again.")
        #expect(presentation.titles == ["OK"])
    }

    @Test func simpleErrorsAreMadeOnTheSpot() {
        let chain = ErrorHandlerChain()
        let plain = chain.presentation(for: SimpleError(source: .externalSystemUnavailable, message: "The server is down."))
        #expect(plain.description == "Service Unavailable: The server is down. [OK (recommended)]")
        let healable = chain.presentation(
            for: SimpleHealableError(
                source: .externalSystemUnavailable, message: "Could not connect.", healingOptions: [.tryAgain(), .cancel()]))
        #expect(healable.description == "Service Unavailable: Could not connect. [Try Again (recommended), Cancel (cancel)]")
        let fatal = chain.presentation(for: SimpleFatalError(message: "The app is damaged."))
        #expect(fatal.description == "Something Went Wrong: The app is damaged. [OK (recommended)]")
    }

    @Test func doRoutesWhateverTheBodyThrowsToTheChain() {
        let (router, shown) = router()
        router.do { throw PasswordValidationError() }
        router.do {}
        #expect(shown.items.map(\.title) == ["Invalid User Input"])
        let image: Int? = router.do { throw SimpleError(source: .externalSystemUnavailable, message: "Offline.") }
        #expect(image == nil)
        #expect(router.do { 7 } == 7)
        #expect(shown.items.map(\.message) == [PasswordValidationError().errorDescription, "Offline."])
    }

    @Test func handlePresentsAnyError() {
        struct Unexpected: Error {}
        let (router, shown) = router()
        do {
            throw Unexpected()
        } catch {
            router.handle(error)
        }
        #expect(
            shown.items.map(\.description) == ["Something Went Wrong: The request could not be completed. [OK (recommended)]"])
    }

    @Test func anErrorThatRequiresLogoutLogsOutWithoutBeingShown() {
        let loggedOut = Log<Void>()
        let (router, shown) = router(ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { loggedOut.append(()) })))
        router.handle(RequestError.unauthorized)
        #expect(shown.items.isEmpty)
        #expect(loggedOut.items.count == 1)
    }

    @Test func aLoggingChainLogsEveryErrorItPresents() {
        let logged = Log<String>()
        let chain = ErrorHandlerChain()
            .prepending(AnyErrorHandler(for: PasswordValidationError.self) { _ in nil })
            .logging { error, presentation in logged.append("\(type(of: error)) -> \(presentation.title)") }
        let (router, _) = router(chain)
        router.handle(PasswordValidationError())
        router.handle(RequestError.timedOut)
        #expect(logged.items == ["PasswordValidationError -> Invalid User Input", "RequestError -> Service Unavailable"])
    }
}
