import Streams

extension Collection where Element: Publisher {
    /// Passes on the values of every publisher of the collection as they arrive. CombineExt's
    /// `merge()`, typed `AnyPublisher` as CombineExt declares it; the same as
    /// `Publishers.MergeMany(collection)`. An empty collection finishes at once.
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
    public func merge() -> AnyPublisher<Element.Output, Element.Failure> {
        Publishers.MergeMany(self).eraseToAnyPublisher()
    }
}
