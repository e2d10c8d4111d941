import Streams

extension Publisher {
    /// Drops the upstream's failure: values pass through and a failure becomes `.finished`, or
    /// nothing at all when `completeImmediately` is `false` (the stream then stays open, silent,
    /// until cancelled).
    ///
    /// Built on `catch` with an `Empty` recovery, as in CombineExt; it returns the type-erased
    /// publisher CombineExt declares.
    ///
    /// ```swift
    /// let names: AnyPublisher<String, Never> = api.names().ignoreFailure()
    /// ```
    @inlinable
    public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
        self.catch { _ in Empty<Output, Never>(completeImmediately: completeImmediately) }.eraseToAnyPublisher()
    }

    /// Drops the upstream's failure as ``ignoreFailure(completeImmediately:)`` does, and gives the
    /// result the failure type `newFailureType`, to be combined with publishers that can fail.
    ///
    /// ```swift
    /// let cached: AnyPublisher<User, APIError> = cache.user(id: 1).ignoreFailure(setFailureType: APIError.self)
    /// ```
    @inlinable
    public func ignoreFailure<NewFailure: Error>(
        setFailureType newFailureType: NewFailure.Type,
        completeImmediately: Bool = true
    ) -> AnyPublisher<Output, NewFailure> {
        ignoreFailure(completeImmediately: completeImmediately).setFailureType(to: newFailureType).eraseToAnyPublisher()
    }
}
