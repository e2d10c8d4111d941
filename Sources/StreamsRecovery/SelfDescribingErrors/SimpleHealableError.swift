/// A ``HealableError`` made on the spot from a source, a message and its options (MungoHealer's
/// `MungoHealableError`).
///
/// ```swift
/// throw SimpleHealableError(
///     source: .externalSystemUnavailable, message: "Could not connect to the server.",
///     healingOptions: [.tryAgain(), .cancel()])
/// ```
public struct SimpleHealableError: HealableError, UserFacingError, Sendable {
    /// Where the error comes from.
    public var source: ErrorSource
    /// The message shown to the user.
    public var errorDescription: String
    /// The choices offered.
    public var healingOptions: [RecoveryOption]

    /// Makes the error.
    ///
    /// ```swift
    /// let error = SimpleHealableError(source: .invalidUserInput, message: "Invalid path.", healingOptions: [.ok()])
    /// ```
    public init(source: ErrorSource, message: String, healingOptions: [RecoveryOption]) {
        self.source = source
        self.errorDescription = message
        self.healingOptions = healingOptions
    }
}
