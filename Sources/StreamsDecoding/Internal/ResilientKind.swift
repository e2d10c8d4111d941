/// The kinds of value `Resilient.init(from:)` recognises when the program runs (a property of a
/// keyed type is dispatched by overload instead).
protocol ResilientKind {
    /// Decodes a `Resilient<Self>` from `source`, returned as `Any`.
    static func decodeResilient(from source: some ResilientSource) -> Any
}

/// The collections: they keep their good elements also when they are optional.
@usableFromInline
protocol ResilientCollectionKind {
    /// Decodes a `Resilient<Self?>` from `source`, returned as `Any`.
    static func decodeOptional(from source: some ResilientSource) -> Any
}

extension Optional: ResilientKind where Wrapped: Decodable {
    static func decodeResilient(from source: some ResilientSource) -> Any {
        ResilientDecoding.optional(Wrapped.self, from: source)
    }
}

extension Array: ResilientKind, ResilientCollectionKind where Element: Decodable {
    static func decodeResilient(from source: some ResilientSource) -> Any {
        let (value, outcome) = ResilientDecoding.elements(Element.self, from: source)
        return Resilient(value ?? [], outcome: outcome)
    }

    @usableFromInline
    static func decodeOptional(from source: some ResilientSource) -> Any {
        let (value, outcome) = ResilientDecoding.elements(Element.self, from: source)
        return Resilient(value, outcome: outcome)
    }
}

extension Dictionary: ResilientKind, ResilientCollectionKind where Key == String, Value: Decodable {
    static func decodeResilient(from source: some ResilientSource) -> Any {
        let (value, outcome) = ResilientDecoding.entries(Value.self, from: source)
        return Resilient(value ?? [:], outcome: outcome)
    }

    @usableFromInline
    static func decodeOptional(from source: some ResilientSource) -> Any {
        let (value, outcome) = ResilientDecoding.entries(Value.self, from: source)
        return Resilient(value, outcome: outcome)
    }
}
