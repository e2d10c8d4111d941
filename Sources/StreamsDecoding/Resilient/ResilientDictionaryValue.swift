/// `[String: T]` and its optional, as `@Resilient` property types: what lets
/// `$property.results` name the value type. Not API: use it only through `Resilient`.
public protocol _ResilientDictionaryValue {
    /// The value type.
    associatedtype _Value
    /// The entries (none for `nil`).
    var _resilientEntries: [String: _Value] { get }
}

extension Dictionary: _ResilientDictionaryValue where Key == String {
    /// The dictionary itself.
    public var _resilientEntries: [String: Value] { self }
}

extension Optional: _ResilientDictionaryValue where Wrapped: _ResilientDictionaryValue {
    /// The wrapped dictionary's entries, or none.
    public var _resilientEntries: [String: Wrapped._Value] { self?._resilientEntries ?? [:] }
}
