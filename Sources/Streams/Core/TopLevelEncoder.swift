import Foundation

/// An encoder that turns a value into a whole output, such as JSON `Data`.
///
/// `JSONEncoder` and `PropertyListEncoder` conform, so they work with `encode(encoder:)`.
///
/// ```swift
/// let bodies = users.encode(encoder: JSONEncoder())
/// ```
public protocol TopLevelEncoder<Output> {
    /// What the encoder writes.
    associatedtype Output

    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONEncoder: TopLevelEncoder {}
extension PropertyListEncoder: TopLevelEncoder {}
