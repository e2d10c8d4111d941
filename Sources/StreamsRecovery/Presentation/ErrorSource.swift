/// Where an error comes from, which decides how it is explained to the user.
///
/// ```swift
/// struct NameTaken: ErrorSourceProviding { var source: ErrorSource { .invalidUserInput } }
/// ErrorSource.invalidUserInput.defaultTitle   // "Invalid User Input"
/// ```
public enum ErrorSource: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The user entered something the app cannot accept: they can fix it.
    case invalidUserInput
    /// The app contradicted itself (a bug): the user can only report it.
    case internalInconsistency
    /// A server, the network or a device the app needs is not there right now: trying later
    /// may help.
    case externalSystemUnavailable
    /// A server or device answered, but not as the app expects (a changed API, bad data).
    case externalSystemBehavedUnexpectedly

    /// A title for a message about an error from this source: MungoHealer's "Invalid User
    /// Input" for invalid user input, Streams' own words for the others.
    ///
    /// ```swift
    /// ErrorSource.externalSystemUnavailable.defaultTitle   // "Service Unavailable"
    /// ```
    public var defaultTitle: String {
        switch self {
        case .invalidUserInput: "Invalid User Input"
        case .internalInconsistency: "Something Went Wrong"
        case .externalSystemUnavailable: "Service Unavailable"
        case .externalSystemBehavedUnexpectedly: "Unexpected Response"
        }
    }

    /// The case name, such as `externalSystemUnavailable`.
    public var description: String {
        switch self {
        case .invalidUserInput: "invalidUserInput"
        case .internalInconsistency: "internalInconsistency"
        case .externalSystemUnavailable: "externalSystemUnavailable"
        case .externalSystemBehavedUnexpectedly: "externalSystemBehavedUnexpectedly"
        }
    }
}
