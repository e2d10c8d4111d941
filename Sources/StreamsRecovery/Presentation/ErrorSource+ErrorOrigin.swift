import Streams

extension ErrorSource {
    /// The source that names the same fact as `origin`, the core's word for where an error
    /// comes from (see `PresentableError`).
    ///
    /// ```swift
    /// ErrorSource(ErrorOrigin.invalidUserInput)   // .invalidUserInput
    /// ```
    public init(_ origin: ErrorOrigin) {
        switch origin {
        case .invalidUserInput: self = .invalidUserInput
        case .internalInconsistency: self = .internalInconsistency
        case .externalSystemUnavailable: self = .externalSystemUnavailable
        case .externalSystemBehavedUnexpectedly: self = .externalSystemBehavedUnexpectedly
        }
    }
}
