import Foundation

/// A decoder that turns a whole input, such as JSON `Data`, into a value.
///
/// `JSONDecoder` and `PropertyListDecoder` conform, so they work with `decode(type:decoder:)`.
///
/// ```swift
/// let users = dataPublisher.decode(type: [User].self, decoder: JSONDecoder())
/// ```
public protocol TopLevelDecoder<Input> {
    /// What the decoder reads from.
    associatedtype Input

    /// Decodes a `T` from `from`.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension JSONDecoder: TopLevelDecoder {}
extension PropertyListDecoder: TopLevelDecoder {}
