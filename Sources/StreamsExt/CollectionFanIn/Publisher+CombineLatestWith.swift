import Streams

extension Publisher {
    /// Combines the latest values of this publisher and `others` into an array, this
    /// publisher's first; see `Collection.combineLatest()`. CombineExt's spelling.
    ///
    /// ```swift
    /// let all = name.combineLatest(with: surname, nickname)   // [String]
    /// ```
    @inlinable
    public func combineLatest<Other: Publisher>(
        with others: Other...
    ) -> AnyPublisher<[Output], Failure> where Other.Output == Output, Other.Failure == Failure {
        combineLatest(with: others)
    }

    /// Combines the latest values of this publisher and the publishers of `others` into an
    /// array, this publisher's first; see `Collection.combineLatest()`.
    ///
    /// ```swift
    /// let all = first.combineLatest(with: rest)
    /// ```
    @inlinable
    public func combineLatest<Others: Collection>(
        with others: Others
    ) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        ([eraseToAnyPublisher()] + others.map { $0.eraseToAnyPublisher() }).combineLatest()
    }
}
