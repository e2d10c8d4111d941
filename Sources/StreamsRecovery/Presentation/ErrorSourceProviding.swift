/// An error that knows its ``ErrorSource``. Errors that do not are given one from their
/// `ErrorCategory` by ``DefaultErrorHandler``.
///
/// ```swift
/// enum FormError: ErrorSourceProviding {
///     case nameTooShort
///     var source: ErrorSource { .invalidUserInput }
/// }
/// ```
public protocol ErrorSourceProviding: Error {
    /// Where the error comes from.
    var source: ErrorSource { get }
}
