/// A ``FatalError`` made on the spot from a source and a message (MungoHealer's
/// `MungoFatalError`).
///
/// ```swift
/// guard let url = URL(string: path) else {
///     throw SimpleFatalError(source: .internalInconsistency, message: "The app is damaged. Please reinstall it.")
/// }
/// ```
public struct SimpleFatalError: FatalError, Sendable {
    /// Where the error comes from.
    public var source: ErrorSource
    /// The message shown to the user.
    public var errorDescription: String

    /// Makes the error.
    ///
    /// ```swift
    /// throw SimpleFatalError(source: .internalInconsistency, message: "Your data could not be read.")
    /// ```
    public init(source: ErrorSource = .internalInconsistency, message: String) {
        self.source = source
        self.errorDescription = message
    }
}
