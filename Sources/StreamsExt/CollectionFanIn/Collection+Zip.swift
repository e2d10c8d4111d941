import Streams

extension Collection where Element: Publisher {
    /// Pairs the values of every publisher of the collection by position into arrays, in the
    /// collection's order. CombineExt's `zip()`.
    ///
    /// - Any number of publishers, 10,000 and more: they are subscribed in a loop, and a value
    ///   costs a constant amount of bookkeeping besides the array it completes.
    /// - Demand, as `zip`: the downstream's requests are asked of every publisher.
    /// - It finishes once a publisher has finished with no value left to pair (at once for an
    ///   empty collection); the first failure fails it and cancels the others.
    ///
    /// ```
    /// a:      -1---2-----3|
    /// b:      ---x----y---|
    /// result: ---[1,x]-[2,y]-|
    /// ```
    ///
    /// ```swift
    /// let rows = columns.zip()   // the first value of each column, then the second, …
    /// ```
    @inlinable
    public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
        Publishers.ZipMany(self).eraseToAnyPublisher()
    }
}
