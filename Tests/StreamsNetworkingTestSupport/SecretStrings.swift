import Foundation
import Testing

/// What the secrecy checks look for: `SECRET`, in every string the standard library and
/// Foundation make of a value. Shared by the transport suite's ``SecretChecks`` and the
/// networking tests' redaction suite.
///
/// ```swift
/// SecretStrings.expectNoSecret(in: error, "the failure")
/// ```
public enum SecretStrings {
    /// The secret put in every place a secret can be.
    public static let secret = "SECRET"

    /// Every string the standard library and Foundation make of `value`: its description, its
    /// debug description, its dump, and, for an error, its localized description.
    public static func strings(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var strings = [String(describing: value), String(reflecting: value), dumped, "\(value)"]
        if let error = value as? any Error { strings.append(error.localizedDescription) }
        return strings
    }

    /// Records every string of `value` that shows the secret.
    public static func expectNoSecret(
        in value: Any, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for string in strings(of: value) where string.contains(secret) {
            Issue.record("\(what) shows the secret: \(string)", sourceLocation: sourceLocation)
        }
    }
}
