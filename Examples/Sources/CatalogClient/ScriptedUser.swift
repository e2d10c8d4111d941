import StreamsNetworking
import StreamsRecovery
import Synchronization

/// A user who answers error presentations from a script: the presenter of the demo and the
/// tests, where an app would show an alert. It keeps every presentation it was shown, and
/// chooses the options whose titles it was given, in order; with none left, it answers nothing,
/// which lets the error through.
///
/// ```swift
/// let user = ScriptedUser()
/// let client = CatalogClient(baseURL: api, scheduler: queue, presenter: user.present)
/// user.willChoose("Try Again", "Cancel")
/// // … client.catalog(at: "crash") is shown twice, tried again once, then cancelled …
/// ```
public final class ScriptedUser: Sendable {
    private struct Script {
        var answers: [String] = []
        var shown: [ErrorPresentation] = []
    }

    private let script = Mutex(Script())

    /// A user with nothing to choose yet.
    ///
    /// ```swift
    /// let user = ScriptedUser()
    /// ```
    public init() {}

    /// The titles of the options to choose at the next presentations, one each, in order
    /// (replacing those not used yet).
    ///
    /// ```swift
    /// user.willChoose("OK")
    /// ```
    public func willChoose(_ titles: String...) {
        script.withLock { $0.answers = titles }
    }

    /// The presentations shown since the last call, which forgets them.
    ///
    /// ```swift
    /// let shown = user.takePresentations().map(\.title)   // ["Server Error", "Server Error"]
    /// ```
    public func takePresentations() -> [ErrorPresentation] {
        script.withLock { script in
            defer { script.shown = [] }
            return script.shown
        }
    }

    /// Shows `presentation` and answers with the next scripted option, if it is offered; ends
    /// without an answer otherwise.
    ///
    /// ```swift
    /// let recovering = request.recover(through: chain, presenter: user.present)
    /// ```
    public func present(_ presentation: ErrorPresentation) -> AnyPublisher<RecoveryOption, Never> {
        let title = script.withLock { script -> String? in
            script.shown.append(presentation)
            return script.answers.isEmpty ? nil : script.answers.removeFirst()
        }
        guard let option = title.flatMap(presentation.option(titled:)) else { return Empty().eraseToAnyPublisher() }
        return Just(option).eraseToAnyPublisher()
    }
}
