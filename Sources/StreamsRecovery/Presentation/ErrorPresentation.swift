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

    /// Makes a presentation; the title defaults to the source's.
    ///
    /// ```swift
    /// let presentation = ErrorPresentation(source: .invalidUserInput, message: "Names need 4 letters.", options: [.ok()])
    /// ```
    public init(source: ErrorSource, title: String? = nil, message: String, options: [RecoveryOption]) {
        precondition(!options.isEmpty, "An error presentation needs at least one option")
        self.source = source
        self.title = title ?? source.defaultTitle
        self.message = message
        self.options = options
    }

    /// The option with `title`, if there is one (how a script or a test picks an answer).
    ///
    /// ```swift
    /// let answer = presentation.option(titled: "Try Again")
    /// ```
    public func option(titled title: String) -> RecoveryOption? {
        options.first { $0.title == title }
    }

    /// `Title: message [Option (role), ...]`.
    public var description: String {
        "\(title): \(message) [\(options.map(\.description).joined(separator: ", "))]"
    }
}
