/// A property wrapper that lets a `Decodable` type survive bad data in one property.
///
/// What it recovers from depends on the property's type:
///
/// | property | bad value | `null` / missing key |
/// | --- | --- | --- |
/// | `T?` | `nil` | `nil` |
/// | `[T]` | the bad elements are left out; a value that is not an array gives `[]` | `[]` |
/// | `[T]?` | the bad elements are left out; a value that is not an array gives `[]` | `nil` |
/// | `[String: T]` | the bad entries are left out; a value that is not an object gives `[:]` | `[:]` |
/// | `[String: T]?` | the bad entries are left out; a value that is not an object gives `[:]` | `nil` |
/// | a ``ResilientRawRepresentable`` with a `decodingFallback` | the fallback | the fallback |
///
/// Every recovered error goes to the ``ResilientDecodingErrorReporter`` in the decoder's
/// `userInfo`, if there is one. The projected value (`$property`) tells what happened:
/// ``outcome``, ``error``, and for collections `errors` and `results`. It is available in every
/// build; the outcome it reads takes 16 bytes per property (Docs/ResilientDecoding.md has the
/// measured cost).
///
/// ```swift
/// struct Feed: Decodable {
///     @Resilient var posts: [Post]          // a bad post is skipped
///     @Resilient var pinned: Post?          // a bad pinned post becomes nil
///     @Resilient var layout: Layout         // an unknown layout becomes Layout.decodingFallback
/// }
/// let feed = try JSONDecoder().decode(Feed.self, from: data)
/// print(feed.$posts.errors)                 // why the skipped posts were skipped
/// ```
@propertyWrapper
public struct Resilient<Value: Decodable>: Decodable {
    /// The decoded value, or what replaced the part that could not be decoded. Setting it marks
    /// the outcome `decodedSuccessfully`.
    public var wrappedValue: Value {
        didSet { outcome = .decodedSuccessfully }
    }

    /// What happened when the value was decoded.
    ///
    /// ```swift
    /// if case .keyNotFound = feed.$pinned.outcome { print("nothing pinned") }
    /// ```
    public private(set) var outcome: ResilientDecodingOutcome

    /// The wrapper itself, so that `$property.outcome`, `$property.errors` and
    /// `$property.results` read what happened while decoding.
    ///
    /// ```swift
    /// print(feed.$posts.outcome)
    /// ```
    public var projectedValue: Resilient<Value> { self }

    /// Wraps a value made in code (its outcome is `decodedSuccessfully`), as memberwise
    /// initialisers do.
    ///
    /// ```swift
    /// let feed = Feed(posts: [], pinned: nil, layout: .grid)
    /// ```
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
        self.outcome = .decodedSuccessfully
    }

    @usableFromInline
    init(_ value: Value, outcome: ResilientDecodingOutcome) {
        self.wrappedValue = value
        self.outcome = outcome
    }

    /// Decodes the value resiliently from `decoder` as a whole (a property of a keyed type is
    /// decoded by the `KeyedDecodingContainer` overloads instead, which also handle a missing
    /// key). A type that is none of the supported kinds is decoded as usual.
    ///
    /// ```swift
    /// let tags = try JSONDecoder().decode(Resilient<[String]>.self, from: Data(#"["a", 1, "b"]"#.utf8))
    /// tags.wrappedValue   // ["a", "b"]
    /// ```
    public init(from decoder: any Decoder) throws {
        let source = DecoderSource(decoder: decoder)
        if let kind = Value.self as? any ResilientKind.Type {
            self = kind.decodeResilient(from: source) as! Resilient<Value>
        } else if let raw = Value.self as? any ResilientRawRepresentable.Type {
            self = try Self.decodeRaw(raw, from: source)
        } else {
            self.init(try Value(from: decoder), outcome: .decodedSuccessfully)
        }
    }

    private static func decodeRaw<Raw: ResilientRawRepresentable>(
        _ type: Raw.Type, from source: DecoderSource
    ) throws -> Resilient<Value> {
        guard Raw.DecodingFallback.self == Raw.self else {
            return Resilient(try Value(from: source.decoder), outcome: .decodedSuccessfully)
        }
        return ResilientDecoding.withFallback(Raw.self, from: source) as! Resilient<Value>
    }
}

extension Resilient: Sendable where Value: Sendable {}

extension Resilient: Equatable where Value: Equatable {
    /// Compares the wrapped values; the outcomes do not count.
    ///
    /// ```swift
    /// Resilient(wrappedValue: [1]) == Resilient(wrappedValue: [1])   // true
    /// ```
    public static func == (lhs: Resilient, rhs: Resilient) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension Resilient: Hashable where Value: Hashable {
    /// Hashes the wrapped value.
    ///
    /// ```swift
    /// var seen: Set<Resilient<Int?>> = [Resilient(wrappedValue: 1)]
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(wrappedValue)
    }
}

extension Resilient: Encodable where Value: Encodable {
    /// Encodes the wrapped value as if there were no wrapper.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(feed)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Resilient {
    /// The error that was recovered from, if any. For a collection whose elements failed, it
    /// sums them up; `errors` lists them one by one.
    ///
    /// ```swift
    /// if let error = profile.$nickname.error { log(error) }
    /// ```
    public var error: (any Error)? {
        if case .recoveredFrom(let error, _) = outcome { error } else { nil }
    }
}
