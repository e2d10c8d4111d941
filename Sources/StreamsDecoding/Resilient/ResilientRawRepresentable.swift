/// A `RawRepresentable` type (typically an enum) that `@Resilient` decodes with care for values
/// this version of the app does not know.
///
/// Adopting it changes how the type decodes everywhere: a raw value with no case is an
/// ``UnknownNovelValueError`` (the server added a case; not counted in
/// ``ErrorDigest/errors`` unless asked for) unless the type ``isFrozen``, in which case it is a
/// `DecodingError` (the data is wrong). Give it a `decodingFallback` to use it as a
/// non-optional `@Resilient` property; without one, use an optional (`@Resilient var x: T?`)
/// or an array (`@Resilient var x: [T]`): a non-optional `@Resilient` property of a type without
/// a fallback decodes as if it had no wrapper (a bad or missing value fails the decode).
///
/// ```swift
/// enum Layout: String, ResilientRawRepresentable {
///     case list, grid, unknown
///     static var decodingFallback: Layout { .unknown }
/// }
/// struct Screen: Decodable { @Resilient var layout: Layout }
/// ```
public protocol ResilientRawRepresentable: Decodable, RawRepresentable where RawValue: Decodable {
    /// The type of ``decodingFallback``: `Self` when the type declares one, `Never` (no
    /// fallback) when it does not. You never write it: declaring
    /// `static var decodingFallback: Self` is enough.
    associatedtype DecodingFallback = Never

    /// The value a non-optional `@Resilient` property takes when its value is missing, `null` or
    /// cannot be decoded. Optional: declare it as `static var decodingFallback: Self`.
    ///
    /// ```swift
    /// static var decodingFallback: Layout { .unknown }
    /// ```
    static var decodingFallback: DecodingFallback { get }

    /// Whether every raw value the type will ever see is known (default `false`). For a frozen
    /// type an unknown raw value is an ordinary decoding error rather than an
    /// ``UnknownNovelValueError``.
    ///
    /// ```swift
    /// static var isFrozen: Bool { true }
    /// ```
    static var isFrozen: Bool { get }
}

extension ResilientRawRepresentable {
    /// `false`: new raw values may appear.
    public static var isFrozen: Bool { false }

    /// Decodes the raw value; an unknown one is an ``UnknownNovelValueError``, or a
    /// `DecodingError.dataCorrupted` when the type ``isFrozen``.
    ///
    /// ```swift
    /// let layout = try JSONDecoder().decode(Layout.self, from: Data(#""grid""#.utf8))
    /// ```
    public init(from decoder: any Decoder) throws {
        let rawValue = try decoder.singleValueContainer().decode(RawValue.self)
        guard let value = Self(rawValue: rawValue) else {
            if Self.isFrozen {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "\(rawValue) is not a raw value of \(Self.self)"))
            }
            throw UnknownNovelValueError(novelValue: rawValue, type: Self.self, codingPath: decoder.codingPath)
        }
        self = value
    }
}

extension ResilientRawRepresentable where DecodingFallback == Never {
    /// Never called: a type without a fallback cannot be a non-optional `@Resilient` property.
    public static var decodingFallback: Never {
        preconditionFailure("\(Self.self) has no decodingFallback")
    }
}
