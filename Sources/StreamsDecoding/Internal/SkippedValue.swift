/// Decodes from anything and keeps nothing: decoding it moves an unkeyed container past an
/// element that failed to decode.
struct SkippedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
