/// A value in an object.
///
/// Operators keep their downstream (often a chain of structs holding closures) in a box, so that
/// handing it out of a lock costs one retain instead of a copy that retains every reference the
/// chain holds.
@usableFromInline
package final class Box<Value> {
    @usableFromInline
    package let value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }
}
