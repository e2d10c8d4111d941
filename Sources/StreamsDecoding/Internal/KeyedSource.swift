/// A `@Resilient` property: the value under `key` in `container`.
struct KeyedSource<Key: CodingKey>: ResilientSource {
    let container: KeyedDecodingContainer<Key>
    let key: Key

    var isMissing: Bool { !container.contains(key) }

    var codingPath: [any CodingKey] { container.codingPath + [key] }

    func decodeNil() -> Bool {
        (try? container.decodeNil(forKey: key)) ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try container.decode(T.self, forKey: key)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try container.nestedUnkeyedContainer(forKey: key)
    }

    func keyedContainer() throws -> KeyedDecodingContainer<AnyCodingKey> {
        try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: key)
    }

    func reporter() -> ResilientDecodingErrorReporter? {
        // A keyed container has no userInfo of its own; its decoder for the key does.
        (try? container.superDecoder(forKey: key))?.userInfo[.resilientDecodingErrorReporter]
            as? ResilientDecodingErrorReporter
    }
}
