/// An error that knows how it is shown to the people using the app: a short title, a plain
/// sentence with no code-level detail, and where it comes from.
///
/// It lives in the core so that a library's errors (StreamsNetworking's `NetworkError`) and the
/// presentation of errors (StreamsRecovery's default handler) meet without either depending on
/// the other: the error conforms here, the handler reads it here.
///
/// ```swift
/// enum UploadError: PresentableError {
///     case quotaExceeded
///     var presentationTitle: String { "Storage Full" }
///     var presentationMessage: String { "Your storage is full. Delete some files and try again." }
///     var origin: ErrorOrigin { .invalidUserInput }
/// }
/// ```
public protocol PresentableError: Error {
    /// A short title, such as "Not Found".
    var presentationTitle: String { get }
    /// What happened and what the user can do, in the user's terms: no status codes, no
    /// reason codes, no error numbers.
    var presentationMessage: String { get }
    /// Where the error comes from.
    var origin: ErrorOrigin { get }
}
