/// Where an error comes from, in the core's words: the same four facts as the sources of
/// StreamsRecovery's `ErrorSource`, so that an error type of any library (a networking layer, an
/// app's own) can say where it comes from without depending on the recovery library.
///
/// ```swift
/// struct NameTaken: PresentableError {
///     var presentationTitle: String { "Name Taken" }
///     var presentationMessage: String { "Someone already has this name." }
///     var origin: ErrorOrigin { .invalidUserInput }
/// }
/// ```
public enum ErrorOrigin: Sendable, Hashable, CaseIterable {
    /// The user entered or asked for something the app cannot accept: they can change it.
    case invalidUserInput
    /// The app contradicted itself (a bug): the user can only report it.
    case internalInconsistency
    /// A server, the network or a device the app needs is not there right now: trying later
    /// may help.
    case externalSystemUnavailable
    /// A server or device answered, but not as the app expects (a changed API, bad data).
    case externalSystemBehavedUnexpectedly
}
