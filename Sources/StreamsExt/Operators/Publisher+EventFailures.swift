import Streams

extension Publisher where Output: EventConvertible, Failure == Never {
    /// The failures of a stream of events: `.failure` events pass, as values, the others are
    /// dropped (the stream ends only when the upstream does).
    ///
    /// Returns the type-erased publisher CombineExt declares; dropped events ask upstream for one
    /// more.
    ///
    /// ```swift
    /// let errors = request.materialize().failures()   // the failure, if any, then finished
    /// ```
    @inlinable
    public func failures() -> AnyPublisher<Output.Failure, Never> {
        compactMap { input in
            if case .failure(let error) = input.event { error } else { nil }
        }.eraseToAnyPublisher()
    }
}
