import ErrorHandlingArticles
import Testing

@Suite("MungoHealer's examples, on a console")
struct MungoHealerArticleTests {
    typealias Shown = RecordingPresenter.Shown

    @Test func aMissingFieldIsInvalidUserInput() {
        let app = MungoHealerArticle()
        #expect(app.login(userName: "", password: "x", apiToken: { _, _ in "token" }) == nil)
        #expect(app.login(userName: "ann", password: "", apiToken: { _, _ in "token" }) == nil)
        #expect(app.login(userName: "ann", password: "x", apiToken: { _, _ in nil }) == nil)
        #expect(app.login(userName: "ann", password: "x", apiToken: { _, _ in "token" }) == "token")
        #expect(
            app.presenter.shown == [
                Shown(title: "Invalid User Input", message: "Please enter a username.", options: ["OK"]),
                Shown(title: "Invalid User Input", message: "Please enter a password.", options: ["OK"]),
                Shown(title: "Invalid User Input", message: "Username and password did not match.", options: ["OK"]),
            ])
        #expect(
            app.log == [
                "Error: Please enter a username.", "Error: Please enter a password.",
                "Error: Username and password did not match.",
            ])
    }

    @Test func aHealableErrorOffersItsHealingOptionsAndTryAgainHeals() {
        let app = MungoHealerArticle(answers: ["Try Again"])
        app.loadAvatarImage(failures: 1)
        #expect(
            app.presenter.shown == [
                Shown(
                    title: "Service Unavailable",
                    message: "Could not connect to server. Please check your internet connection and try again.",
                    options: ["Try Again", "Cancel"])
            ])
        #expect(app.avatarFetches == 2)
        #expect(app.avatar == "avatar.png")
    }

    @Test func aBaseErrorShowsItsSourcesTitleAndItsMessage() {
        let app = MungoHealerArticle()
        app.confirm(password: "secret", confirmation: "secert")
        app.confirm(password: "secret", confirmation: "secret")
        #expect(
            app.presenter.shown == [
                Shown(
                    title: "Invalid User Input",
                    message: "Your password confirmation didn't match your password. Please try again.", options: ["OK"])
            ])
    }

    @Test func aFatalErrorShowsItsMessageThenRunsTheFatalHook() {
        let app = MungoHealerArticle(whenFatalErrorIsConfirmed: .keepRunning)
        app.readSettings()
        #expect(
            app.presenter.shown == [
                Shown(
                    title: "Something Went Wrong",
                    message: "An unexpected data inconsistency has occurred. App execution can not be continued.",
                    options: ["OK"])
            ])
        #expect(app.fatalHookRan)
        #expect(app.log == ["Error: An unexpected data inconsistency has occurred. App execution can not be continued."])
    }

    @Test func aConfirmedFatalErrorEndsTheApp() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MungoHealerArticle().readSettings()
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(errors.contains("UnexpectedNilFatalError"))
    }
}
