import Streams

extension Publisher {
    /// Pairs the values of this publisher and `others` by position into arrays, this
    /// publisher's first; see `Collection.zip()`. CombineExt's spelling.
    ///
    /// ```swift
    /// let rows = first.zip(with: second, third)   // [Int]
    /// ```
    @inlinable
    public func zip<Other: Publisher>(
        with others: Other...
    ) -> AnyPublisher<[Output], Failure> where Other.Output == Output, Other.Failure == Failure {
        zip(with: others)
    }

    /// Pairs the values of this publisher and the publishers of `others` by position into
    /// arrays, this publisher's first; see `Collection.zip()`.
    ///
    /// ```swift
    /// let rows = first.zip(with: rest)
    /// ```
    @inlinable
    public func zip<Others: Collection>(
        with others: Others
    ) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).zip()
    }
}
