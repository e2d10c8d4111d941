/// A ``ResilientRawRepresentable`` type that is not frozen met a raw value it has no case for,
/// most likely one a newer server added. `@Resilient` recovers from it like from any error, but
/// ``ErrorDigest/errors`` leaves it out unless asked
/// (``ErrorDigest/errors(includeUnknownNovelValueErrors:)``): it is expected, not a bug.
///
/// ```swift
/// let novel = digest.errors(includeUnknownNovelValueErrors: true).compactMap { $0 as? UnknownNovelValueError }
/// print(novel.map(\.novelValue))   // ["archived"]
/// ```
// Unchecked: `novelValue` is a raw value (a `String`, an `Int`, ...), typed `Any`.
public struct UnknownNovelValueError: Error, @unchecked Sendable, CustomStringConvertible {
    /// The raw value that has no case (a `String`, an `Int`, ...: raw values are plain values,
    /// which is why the error may cross threads).
    public let novelValue: Any
    /// The type that did not know it.
    public let type: Any.Type
    /// Where it was found.
    public let codingPath: [any CodingKey]

    /// Makes the error for `novelValue` of `type` found at `codingPath`.
    ///
    /// ```swift
    /// throw UnknownNovelValueError(novelValue: "archived", type: Status.self, codingPath: decoder.codingPath)
    /// ```
    public init(novelValue: Any, type: Any.Type, codingPath: [any CodingKey] = []) {
        self.novelValue = novelValue
        self.type = type
        self.codingPath = codingPath
    }

    /// `unknown novel value "archived" for Status`.
    public var description: String {
        let value = novelValue as? String
        return "unknown novel value \(value.map { "\"\($0)\"" } ?? "\(novelValue)") for \(type)"
    }
}
