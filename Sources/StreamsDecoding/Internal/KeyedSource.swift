/// A `@Resilient` property: the value under `key` in `container`.
@usableFromInline
struct KeyedSource<Key: CodingKey>: ResilientSource {
    @usableFromInline
    let container: KeyedDecodingContainer<Key>
    @usableFromInline
    let key: Key

    @inlinable
    init(container: KeyedDecodingContainer<Key>, key: Key) {
        self.container = container
        self.key = key
    }

    @inlinable
    var isMissing: Bool { !container.contains(key) }

    @inlinable
    var codingPath: [any CodingKey] { container.codingPath + [key] }

    @inlinable
    func decodeNil() -> Bool {
        (try? container.decodeNil(forKey: key)) ?? false
    }

    @inlinable
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try container.decode(T.self, forKey: key)
    }

    @inlinable
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try container.nestedUnkeyedContainer(forKey: key)
    }

    @inlinable
    func keyedContainer() throws -> KeyedDecodingContainer<AnyCodingKey> {
        try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
    }

    @usableFromInline
    func reporter() -> ResilientDecodingErrorReporter? {
        // A keyed container has no userInfo of its own; its decoder for the key does.
        (try? container.superDecoder(forKey: key))?.userInfo[.resilientDecodingErrorReporter]
            as? ResilientDecodingErrorReporter
    }
}
