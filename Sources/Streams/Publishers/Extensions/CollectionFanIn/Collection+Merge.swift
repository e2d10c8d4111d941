extension Collection where Element: Publisher {
    /// Passes on the values of every publisher of the collection as they arrive. CombineExt's
    /// `merge()`; the same as `Publishers.MergeMany(collection)`.
    ///
    /// ```
    /// a:      -1---2--|
    /// b:      ---x---y-|
    /// result: -1-x-2-y-|
    /// ```
    ///
    /// ```swift
    /// let anyTap = buttons.map(\.taps).merge()
    /// ```
    @inlinable
    public func merge() -> Publishers.MergeMany<Element> {
        Publishers.MergeMany(self)
    }
}
