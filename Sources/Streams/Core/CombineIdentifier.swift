import Synchronization

/// A unique identifier of a subscriber or a subscription.
///
/// ```swift
/// let a = CombineIdentifier()
/// let b = CombineIdentifier()
/// assert(a != b)
/// ```
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    let rawValue: UInt64

    /// Makes an identifier that no other `init()` call returns.
    ///
    /// ```swift
    /// let id = CombineIdentifier()
    /// ```
    public init() {
        rawValue = nextCombineIdentifier.add(1, ordering: .relaxed).newValue
    }

    /// Makes the identifier of `object`, equal for the same object while it lives.
    ///
    /// ```swift
    /// let id = CombineIdentifier(subscriber)
    /// ```
    @inlinable
    public init(_ object: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }

    /// The identifier as a hexadecimal number.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

/// Counter behind `CombineIdentifier.init()`. Object identifiers are addresses, which are
/// aligned and far above this counter's range, so the two kinds never collide in practice.
private let nextCombineIdentifier = Atomic<UInt64>(0)
