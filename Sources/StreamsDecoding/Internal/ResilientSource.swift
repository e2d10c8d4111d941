/// Where a `@Resilient` value is read from: one key of a keyed container, or a whole decoder.
/// The decoding logic is written once against this and specialised for both.
@usableFromInline
protocol ResilientSource {
    /// Whether the key is absent (never, for a whole decoder).
    var isMissing: Bool { get }
    /// The path of the value itself.
    var codingPath: [any CodingKey] { get }
    /// Whether the value is `null`.
    func decodeNil() -> Bool
    /// Decodes the value as a `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T
    /// The value as an array.
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer
    /// The value as an object with any keys.
    func keyedContainer() throws -> KeyedDecodingContainer<AnyCodingKey>
    /// The reporter in the decoder's `userInfo`, if any. Only asked when there is an error to
    /// report, so the successful path never pays for it.
    func reporter() -> ResilientDecodingErrorReporter?
}
