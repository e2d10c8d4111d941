/// Arrays and optional arrays, as `@Resilient` property types: what lets `$property.results`
/// name the element type. Not API: use it only through `Resilient`.
public protocol _ResilientArrayValue {
    /// The element type.
    associatedtype _Element
    /// The elements (none for `nil`).
    var _resilientElements: [_Element] { get }
}

extension Array: _ResilientArrayValue {
    /// The array itself.
    public var _resilientElements: [Element] { self }
}

extension Optional: _ResilientArrayValue where Wrapped: _ResilientArrayValue {
    /// The wrapped array's elements, or none.
    public var _resilientElements: [Wrapped._Element] { self?._resilientElements ?? [] }
}
