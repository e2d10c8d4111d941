/// An error that knows its ``ErrorCategory``.
///
/// `retry(_:when:backoff:scheduler:)` retries the errors whose category is `.retryable` unless
/// told otherwise.
///
/// ```swift
/// enum APIError: CategorizedError {
///     case timedOut, notFound
///     var category: ErrorCategory { self == .timedOut ? .retryable : .nonRetryable }
/// }
/// ```
public protocol CategorizedError: Error {
    /// The error's category.
    var category: ErrorCategory { get }
}

extension Error {
    /// The error's category: its own for a ``CategorizedError``, `.nonRetryable` for any other
    /// error. Works on `any Error` values too.
    ///
    /// ```swift
    /// let error: any Error = APIError.timedOut
    /// error.resolveCategory()   // .retryable
    /// ```
    public func resolveCategory() -> ErrorCategory {
        (self as? any CategorizedError)?.category ?? .nonRetryable
    }
}
