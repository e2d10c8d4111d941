/// A ``UserFacingError`` made on the spot from a source and a message, for errors that need no
/// type of their own (MungoHealer's `MungoError`).
///
/// ```swift
/// guard !userName.isEmpty else { throw SimpleError(source: .invalidUserInput, message: "Please enter a username.") }
/// ```
public struct SimpleError: UserFacingError, Sendable {
    /// Where the error comes from.
    public var source: ErrorSource
    /// The message shown to the user.
    public var errorDescription: String

    /// Makes the error.
    ///
    /// ```swift
    /// throw SimpleError(source: .externalSystemUnavailable, message: "The server is down.")
    /// ```
    public init(source: ErrorSource, message: String) {
        self.source = source
        self.errorDescription = message
    }
}
