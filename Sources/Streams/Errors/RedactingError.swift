import Foundation

/// An error whose `description` shows no secret, so that the core's events and error wrappers
/// may print it as it describes itself.
///
/// `ResilienceEvent`, `ResilienceError`, ``RetryAttempt`` and ``RetryReport`` carry whatever
/// error a pipeline fails with, and an error's own text may hold secrets: Foundation's `URLError`
/// prints its `userInfo`, with the failing URL, its query and its password. So their
/// descriptions and mirrors show an error's `description` only when its type adopts this
/// protocol; any other error shows as its ``Swift/Error/redactedDescription``: its type name,
/// with the domain and code it has as an `NSError`, never its `userInfo`.
///
/// Adopt it only when the type's `description` (what `String(describing:)` shows) holds nothing
/// secret: no credential, no URL query, no text a server sent unredacted. StreamsNetworking's
/// `NetworkError` adopts it, as do the core's own errors.
///
/// ```swift
/// enum StorageError: RedactingError, CustomStringConvertible {
///     case quotaExceeded(bytes: Int)
///     var description: String {
///         switch self { case .quotaExceeded(let bytes): "quota exceeded by \(bytes) bytes" }
///     }
/// }
///
/// print(ResilienceError<StorageError>.upstream(.quotaExceeded(bytes: 10)))
/// // upstream(quota exceeded by 10 bytes)
/// print(ResilienceError<URLError>.upstream(URLError(.timedOut)))
/// // upstream(URLError(domain: NSURLErrorDomain, code: -1001))
/// ```
public protocol RedactingError: Error {}

extension Error {
    /// This error as the core's events and error wrappers show it: its `description` when its
    /// type is a ``RedactingError``, otherwise only its type name, with the domain and code it has
    /// as an `NSError` (never its `userInfo`, its message or its associated values).
    ///
    /// Use it to log an error of a type you do not know, such as the one a `ResilienceEvent`
    /// carries.
    ///
    /// ```swift
    /// ResilienceEvents { event in
    ///     if case .retryScheduled(let retry, _, let error) = event {
    ///         logger.notice("retry \(retry) after \(error.redactedDescription)")
    ///         // retry 1 after URLError(domain: NSURLErrorDomain, code: -1001)
    ///     }
    /// }
    /// ```
    public var redactedDescription: String {
        if let redacting = self as? any RedactingError { return String(describing: redacting) }
        let bridged = self as NSError
        return "\(type(of: self))(domain: \(bridged.domain), code: \(bridged.code))"
    }
}
