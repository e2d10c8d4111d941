/// An error written for the user: where it comes from (its ``ErrorSource``, which gives the
/// title) and a sentence for them (`errorDescription`, the message). MungoHealer's `BaseError`:
/// an error declared this way ports without change.
///
/// ``DefaultErrorHandler`` presents it with the source's title, the error's message, and the
/// options its category gives ("OK" for an error without one).
///
/// ```swift
/// struct PasswordMismatch: UserFacingError {
///     let errorDescription = "Your password confirmation didn't match your password. Please try again."
///     let source = ErrorSource.invalidUserInput
/// }
/// chain.presentation(for: PasswordMismatch()).title   // "Invalid User Input"
/// ```
public protocol UserFacingError: ErrorSourceProviding {
    /// What happened, in the user's words: the presentation's message.
    var errorDescription: String { get }
}
