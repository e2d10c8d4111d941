import ErrorHandlingArticles
import Testing

@Suite("RecoverableError and minimum request time, on a console")
struct RecoverableErrorArticleTests {
    @Test func theTitleIsTheDescriptionAndTheMessageTheReasonAndSuggestion() {
        let presentation = RecoverableErrorArticle.presentation
        #expect(presentation.title == "Upload Failed")
        #expect(presentation.message == "The server did not answer in time. Check your connection, then try again.")
        #expect(presentation.options.map(\.title) == ["Cancel", "Try Again"])
        #expect(presentation.options.map(\.role) == [.cancel, .normal])
    }

    @Test func aFastFailureIsShownAtTheMinimumRequestTimeAndAFastSuccessArrivesThen() {
        let outcome = RecoverableErrorArticle.upload(failures: 1, answers: ["Try Again"])
        #expect(outcome.uploads == ["t=0s", "t=1s"])
        #expect(
            outcome.shown == ["t=1s Upload Failed: The server did not answer in time. Check your connection, then try again."])
        #expect(outcome.events == ["t=2s uploaded photo-2.jpg", "t=2s finished"])
    }

    @Test func aSlowAnswerIsNotHeldFurther() {
        let outcome = RecoverableErrorArticle.upload(failures: 0, answerMilliseconds: 1500)
        #expect(outcome.events == ["t=1.5s uploaded photo-1.jpg", "t=1.5s finished"])
    }

    @Test func cancellingAFoundationRecoveryLetsTheErrorThrough() {
        let outcome = RecoverableErrorArticle.upload(failures: 1, answers: ["Cancel"])
        #expect(outcome.uploads == ["t=0s"])
        #expect(outcome.events.count == 1)
        #expect(outcome.events[0].hasPrefix("t=1s failed: "))
    }
}
