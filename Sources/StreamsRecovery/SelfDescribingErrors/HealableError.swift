/// An error that carries its own ways out: ``DefaultErrorHandler`` presents its
/// ``healingOptions`` instead of the ones its category would give.
///
/// MungoHealer's `HealableError` is also a `BaseError`: adopt ``UserFacingError`` too to give
/// the source and the message (or `LocalizedError` for the message alone). An empty list of
/// options is a mistake, but not a crash: the error is presented with a single "Dismiss", and
/// the handler's `warn` says so.
///
/// ```swift
/// struct StorageFull: HealableError, UserFacingError {
///     let errorDescription = "Your device is out of space."
///     let source = ErrorSource.externalSystemUnavailable
///     var healingOptions: [RecoveryOption] {
///         [RecoveryOption(title: "Free Space", role: .recommended) { openStorageSettings(); return .tryAgain }, .cancel()]
///     }
/// }
/// ```
public protocol HealableError: Error {
    /// The choices offered for this error: at least one.
    var healingOptions: [RecoveryOption] { get }
}
