/// A `@Resilient` value that is a decoder's whole value (`Resilient.init(from:)`).
struct DecoderSource: ResilientSource {
    let decoder: any Decoder

    var isMissing: Bool { false }

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        (try? decoder.singleValueContainer().decodeNil()) ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: decoder)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer()
    }

    func keyedContainer() throws -> KeyedDecodingContainer<AnyCodingKey> {
        try decoder.container(keyedBy: AnyCodingKey.self)
    }

    func reporter() -> ResilientDecodingErrorReporter? {
        decoder.userInfo[.resilientDecodingErrorReporter] as? ResilientDecodingErrorReporter
    }
}
