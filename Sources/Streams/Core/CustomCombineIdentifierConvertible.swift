/// A type that has a unique identifier for the lifetime of a subscription chain.
///
/// Classes get one for free, made from their object identity.
///
/// ```swift
/// final class MySubscriber: CustomCombineIdentifierConvertible {}
/// let id = MySubscriber().combineIdentifier
/// ```
public protocol CustomCombineIdentifierConvertible {
    /// The identifier of this instance.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identifier made from this object's identity.
    ///
    /// ```swift
    /// let same = object.combineIdentifier == CombineIdentifier(object)   // true
    /// ```
    @inlinable
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
