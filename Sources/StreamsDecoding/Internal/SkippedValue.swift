/// Decodes from anything and keeps nothing: decoding it moves an unkeyed container past an
/// element that failed to decode.
@usableFromInline
struct SkippedValue: Decodable {
    @usableFromInline
    init(from decoder: any Decoder) throws {}
}
