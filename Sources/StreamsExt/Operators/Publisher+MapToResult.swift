import Streams

extension Publisher {
    /// Wraps every value in `Result.success`, and a failure in one last `Result.failure` value
    /// followed by `.finished`, as CombineExt's `mapToResult()` does.
    ///
    /// It behaves as `asResult()`, which it is built on: the failure value waits for demand.
    /// The two differ only in their type: `mapToResult()` returns the type-erased publisher
    /// CombineExt declares, so that code written against CombineExt compiles unchanged;
    /// prefer `asResult()` in new code, whose concrete `Publishers.AsResult` costs no erasure.
    ///
    /// ```swift
    /// let results: AnyPublisher<Result<User, APIError>, Never> = api.user(id: 1).mapToResult()
    /// // .success(user), finished — or — .failure(error), finished
    /// ```
    @inlinable
    public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
        asResult().eraseToAnyPublisher()
    }
}
