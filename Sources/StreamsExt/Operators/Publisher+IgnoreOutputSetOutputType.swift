import Streams

extension Publisher {
    /// Ignores every value and gives the resulting stream the output type `newOutputType`: only
    /// the completion passes, typed so that it can be merged or concatenated with a publisher of
    /// that type.
    ///
    /// ```swift
    /// let work: AnyPublisher<Never, Never> = ...
    /// let progress = work.ignoreOutput(setOutputType: Double.self).prepend(0).append(1)
    /// ```
    @inlinable
    public func ignoreOutput<NewOutput>(
        setOutputType newOutputType: NewOutput.Type
    ) -> Publishers.Map<Publishers.IgnoreOutput<Self>, NewOutput> {
        ignoreOutput().map { _ -> NewOutput in }
    }
}
