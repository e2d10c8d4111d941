import Streams

extension Publisher where Output == Never {
    /// Gives a publisher that can send no values the output type `outputType`, as
    /// `setFailureType(to:)` does for a publisher that cannot fail.
    ///
    /// ```swift
    /// let ready: AnyPublisher<String, Never> = Empty<Never, Never>()
    ///     .setOutputType(to: String.self)
    ///     .eraseToAnyPublisher()
    /// ```
    @inlinable
    public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
        map { _ -> NewOutput in }
    }
}
