import Streams
import StreamsRecovery
import Synchronization

/// The articles' alerts on a console: records what it was asked to show (title, message,
/// options) and answers with the next scripted choice, as a user tapping a button would.
public final class RecordingPresenter: Sendable {
    /// One message as the user saw it.
    public struct Shown: Equatable, Sendable, CustomStringConvertible {
        public let title: String
        public let message: String
        public let options: [String]

        public init(title: String, message: String, options: [String]) {
            self.title = title
            self.message = message
            self.options = options
        }

        /// `Title: message [Option, Option]`.
        public var description: String { "\(title): \(message) [\(options.joined(separator: ", "))]" }
    }

    private let state: Mutex<(shown: [Shown], answers: [String])>
    private let print: @Sendable (String) -> Void

    /// A presenter that answers `answers` in order (the first option once they run out), and
    /// prints each exchange through `print`.
    public init(answers: [String] = [], print: @escaping @Sendable (String) -> Void = { _ in }) {
        state = Mutex(([], answers))
        self.print = print
    }

    /// What was shown, in order.
    public var shown: [Shown] { state.withLock { $0.shown } }

    /// Records `presentation` and returns the option the scripted user picks.
    public func answer(_ presentation: ErrorPresentation) -> RecoveryOption {
        let shown = Shown(title: presentation.title, message: presentation.message, options: presentation.options.map(\.title))
        let answer = state.withLock { state -> String? in
            state.shown.append(shown)
            return state.answers.isEmpty ? nil : state.answers.removeFirst()
        }
        let option = answer.flatMap(presentation.option(titled:)) ?? presentation.options[0]
        print("  shown   \(shown)")
        print("  user    taps \"\(option.title)\"")
        return option
    }

    /// For `recover(through:presenter:)`: the chosen option, at once.
    public func ask(_ presentation: ErrorPresentation) -> Just<RecoveryOption> {
        Just(answer(presentation))
    }

    /// For ``ErrorRouter``: shows `presentation` and runs the chosen option.
    public func show(_ presentation: ErrorPresentation) {
        _ = answer(presentation).choose()
    }
}
