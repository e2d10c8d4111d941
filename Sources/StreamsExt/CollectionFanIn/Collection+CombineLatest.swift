import Streams

extension Collection where Element: Publisher {
    /// Combines the latest values of every publisher of the collection into an array, in the
    /// collection's order: the first array once each has sent a value, then one per value.
    /// CombineExt's `combineLatest()`.
    ///
    /// - Any number of publishers, 10,000 and more: they are subscribed in a loop, and a value
    ///   costs a constant amount of bookkeeping besides copying the array it produces.
    /// - Demand: the downstream's requests are asked of every publisher; an array with no
    ///   demand for it is dropped, as with `combineLatest`.
    /// - It finishes once every publisher has finished (at once for an empty collection); the
    ///   first failure fails it and cancels the others.
    ///
    /// ```
    /// a:      -1-----2---|
    /// b:      ---x------y-|
    /// result: ---[1,x]-[2,x]-[2,y]-|
    /// ```
    ///
    /// ```swift
    /// let allValid = fields.map(\.$isValid).combineLatest().map { $0.allSatisfy { $0 } }
    /// ```
    @inlinable
    public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
        Publishers.CombineLatestMany(self).eraseToAnyPublisher()
    }
}
