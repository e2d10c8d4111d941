import Streams

extension Publisher where Output == Bool {
    /// Negates every Boolean value.
    ///
    /// ```swift
    /// let isHidden = isVisible.toggle()   // true → false, false → true
    /// ```
    @inlinable
    public func toggle() -> Publishers.Map<Self, Bool> {
        map { !$0 }
    }
}
