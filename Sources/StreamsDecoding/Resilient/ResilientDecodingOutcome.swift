/// What happened when a `@Resilient` property was decoded; read it through the projected value.
///
/// ```swift
/// struct Profile: Decodable { @Resilient var nickname: String? }
/// let profile = try JSONDecoder().decode(Profile.self, from: Data(#"{"nickname": 7}"#.utf8))
/// if case .recoveredFrom(let error, _) = profile.$nickname.outcome { print(error) }
/// ```
public enum ResilientDecodingOutcome: Sendable {
    /// The value was decoded as it was sent (for a collection: every element).
    case decodedSuccessfully
    /// The key was absent; the property holds its empty value (`nil`, `[]`, `[:]`) or the type's
    /// `decodingFallback`.
    case keyNotFound
    /// The key was present with `null`; the property holds its empty value or the fallback.
    case valueWasNil
    /// Something could not be decoded: the whole value (the property holds its empty value or
    /// the fallback) or, for a collection, some elements (they were left out). `wasReported` says
    /// whether the error went to a ``ResilientDecodingErrorReporter``.
    case recoveredFrom(any Error, wasReported: Bool)
}

extension ResilientDecodingOutcome: CustomStringConvertible {
    /// `decodedSuccessfully`, `keyNotFound`, `valueWasNil` or `recoveredFrom(<error>)`.
    ///
    /// ```swift
    /// print(profile.$nickname.outcome)   // keyNotFound
    /// ```
    public var description: String {
        switch self {
        case .decodedSuccessfully: "decodedSuccessfully"
        case .keyNotFound: "keyNotFound"
        case .valueWasNil: "valueWasNil"
        case .recoveredFrom(let error, _): "recoveredFrom(\(error))"
        }
    }
}
