import Streams

extension Publisher {
    /// Sends each value with the one before it, from the second value on.
    ///
    /// It is `nwise(2)` as a tuple: `(previous, current)`.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 4].publisher.pairwise().sink { print($0) }
    /// // (1, 2), (2, 4)
    /// ```
    @inlinable
    public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
        NWisePublisher(upstream: self, size: 2).map { ($0[0], $0[1]) }.eraseToAnyPublisher()
    }
}
