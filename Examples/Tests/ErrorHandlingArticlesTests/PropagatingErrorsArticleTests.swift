import ErrorHandlingArticles
import Testing

@Suite("Propagating user-facing errors, on a console")
struct PropagatingErrorsArticleTests {
    typealias Shown = RecordingPresenter.Shown

    @Test func aRetryableErrorOffersTryAgainAndOneTapIsOneRequest() {
        let outcome = PropagatingErrorsArticle.load(failingWith: .deviceIsOffline, failures: 3, answers: ["Try Again"])
        #expect(
            outcome.shown == [
                Shown(
                    title: "Service Unavailable", message: "You appear to be offline. Please check your connection.",
                    options: ["Try Again", "Cancel"])
            ])
        // Three automatic attempts, then the user's one.
        #expect(outcome.requests == 4)
        #expect(outcome.conversations == ["Ann", "Bob"])
        #expect(outcome.ending == "finished")
    }

    @Test func anErrorThatRequiresLogoutLogsOutWithoutAsking() {
        let outcome = PropagatingErrorsArticle.load(failingWith: .unauthorized, failures: 1)
        #expect(outcome.shown.isEmpty)
        #expect(outcome.loggedOut)
        #expect(outcome.requests == 1)
        #expect(outcome.ending == "failed: unauthorized")
    }

    @Test func theScreensHandlerAnswersBeforeTheAppsDefault() {
        let outcome = PropagatingErrorsArticle.load(failingWith: .resourceNotFound, failures: 1)
        #expect(
            outcome.shown == [
                Shown(title: "Conversation Deleted", message: "This conversation is no longer available.", options: ["OK"])
            ])
        #expect(outcome.requests == 1)
        #expect(outcome.ending == "failed: resourceNotFound")
    }
}
