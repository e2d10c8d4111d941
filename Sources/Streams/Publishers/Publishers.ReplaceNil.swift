extension Publisher {
    /// Replaces `nil` values with `output`.
    ///
    /// As in Combine, this is a `map`: the result is a `Publishers.Map`.
    ///
    /// ```swift
    /// let numbers = [1, nil, 3].publisher.replaceNil(with: 0)   // 1, 0, 3
    /// ```
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        map { $0 ?? output }
    }
}
