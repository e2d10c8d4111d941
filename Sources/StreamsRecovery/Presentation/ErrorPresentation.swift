/// What to show the user about an error, independent of any UI toolkit: a title, a
/// user-facing message (never code-level detail) and the options to choose from. A view layer
/// (SwiftUI, UIKit, a terminal, a server's response) only renders it.
///
/// ```swift
/// let presentation = chain.presentation(for: error)
/// print(presentation.title, presentation.message)
/// for option in presentation.options { print("[\(option.title)]") }
/// ```
public struct ErrorPresentation: Sendable, CustomStringConvertible {
    /// Where the error comes from.
    public var source: ErrorSource
    /// A short title.
    public var title: String
    /// What happened and what the user can do, in the user's terms.
    public var message: String
    /// The choices, at least one.
    public var options: [RecoveryOption]
    /// The option to take without asking the user, if any: `recover(through:presenter:)` and
    /// ``ErrorRouter`` choose it instead of calling their presenter (as the default handler
    /// does with "Log Out" for an error that requires logging out).
    public var automaticChoice: RecoveryOption?
    /// Whether `options` was empty when the presentation was made, and a single "Dismiss" was
    /// put in its place (the chain logs a warning about it).
    let replacedMissingOptions: Bool

    /// Makes a presentation; the title defaults to the source's.
    ///
    /// An empty `options` is a mistake of the caller's, but not one to crash an error handler
    /// over: the presentation gets a single ``RecoveryOption/dismiss(_:)`` instead, and an
    /// ``ErrorHandlerChain`` that returns it logs a warning through its default handler's `warn`.
    ///
    /// ```swift
    /// let presentation = ErrorPresentation(source: .invalidUserInput, message: "Names need 4 letters.", options: [.ok()])
    /// ```
    public init(
        source: ErrorSource, title: String? = nil, message: String, options: [RecoveryOption],
        automaticChoice: RecoveryOption? = nil
    ) {
        self.source = source
        self.title = title ?? source.defaultTitle
        self.message = message
        self.replacedMissingOptions = options.isEmpty
        self.options = options.isEmpty ? [.dismiss()] : options
        self.automaticChoice = automaticChoice
    }

    /// The option with `title`, if there is one (how a script or a test picks an answer).
    ///
    /// ```swift
    /// let answer = presentation.option(titled: "Try Again")
    /// ```
    public func option(titled title: String) -> RecoveryOption? {
        options.first { $0.title == title }
    }

    /// `Title: message [Option (role), ...]`, followed by `, chosen without asking: Option`
    /// when there is an ``automaticChoice``.
    public var description: String {
        let options = "\(title): \(message) [\(options.map(\.description).joined(separator: ", "))]"
        guard let automaticChoice else { return options }
        return "\(options), chosen without asking: \(automaticChoice.title)"
    }
}
