/// The overloads that decode `@Resilient` properties. The compiler-written `init(from:)` of a
/// `Decodable` type calls `decode(_:forKey:)` for each property; for a `Resilient` property it
/// picks the most specific of these, which also handle a missing key (the standard `decode`
/// would throw `keyNotFound`). You do not call them yourself.
extension KeyedDecodingContainer {
    /// `@Resilient var x: T?`: `nil` for a missing key, `null` or a bad value.
    ///
    /// ```swift
    /// struct User: Decodable { @Resilient var age: Int? }
    /// ```
    @inlinable
    public func decode<Wrapped: Decodable>(_ type: Resilient<Wrapped?>.Type, forKey key: Key) throws -> Resilient<Wrapped?> {
        ResilientDecoding.optional(Wrapped.self, from: KeyedSource(container: self, key: key))
    }

    /// `@Resilient var x: [T]`: bad elements are left out; `[]` for a missing key, `null` or a
    /// value that is not an array.
    ///
    /// ```swift
    /// struct Feed: Decodable { @Resilient var posts: [Post] }
    /// ```
    @inlinable
    public func decode<Element: Decodable>(_ type: Resilient<[Element]>.Type, forKey key: Key) throws -> Resilient<[Element]> {
        let (value, outcome) = ResilientDecoding.elements(Element.self, from: KeyedSource(container: self, key: key))
        return Resilient(value ?? [], outcome: outcome)
    }

    /// `@Resilient var x: [T]?`: bad elements are left out; `nil` for a missing key or `null`;
    /// `[]` (and the error recorded) for a value that is not an array.
    ///
    /// ```swift
    /// struct Feed: Decodable { @Resilient var drafts: [Post]? }
    /// ```
    @inlinable
    public func decode<Element: Decodable>(_ type: Resilient<[Element]?>.Type, forKey key: Key) throws -> Resilient<[Element]?> {
        let (value, outcome) = ResilientDecoding.elements(Element.self, from: KeyedSource(container: self, key: key))
        return Resilient(value, outcome: outcome)
    }

    /// `@Resilient var x: [String: T]`: bad entries are left out; `[:]` for a missing key,
    /// `null` or a value that is not an object.
    ///
    /// ```swift
    /// struct Prices: Decodable { @Resilient var byCurrency: [String: Decimal] }
    /// ```
    @inlinable
    public func decode<Value: Decodable>(_ type: Resilient<[String: Value]>.Type, forKey key: Key) throws -> Resilient<
        [String: Value]
    > {
        let (value, outcome) = ResilientDecoding.entries(Value.self, from: KeyedSource(container: self, key: key))
        return Resilient(value ?? [:], outcome: outcome)
    }

    /// `@Resilient var x: [String: T]?`: bad entries are left out; `nil` for a missing key or
    /// `null`; `[:]` (and the error recorded) for a value that is not an object.
    ///
    /// ```swift
    /// struct Prices: Decodable { @Resilient var discounts: [String: Decimal]? }
    /// ```
    @inlinable
    public func decode<Value: Decodable>(_ type: Resilient<[String: Value]?>.Type, forKey key: Key) throws -> Resilient<
        [String: Value]?
    > {
        let (value, outcome) = ResilientDecoding.entries(Value.self, from: KeyedSource(container: self, key: key))
        return Resilient(value, outcome: outcome)
    }

    /// `@Resilient var x: T` for a ``ResilientRawRepresentable`` with a `decodingFallback`: the
    /// fallback for a missing key, `null` or a bad or unknown value.
    ///
    /// ```swift
    /// struct Screen: Decodable { @Resilient var layout: Layout }   // Layout.decodingFallback == .unknown
    /// ```
    @inlinable
    public func decode<Raw: ResilientRawRepresentable>(_ type: Resilient<Raw>.Type, forKey key: Key) throws -> Resilient<Raw>
    where Raw.DecodingFallback == Raw {
        ResilientDecoding.withFallback(Raw.self, fallback: Raw.decodingFallback, from: KeyedSource(container: self, key: key))
    }
}
