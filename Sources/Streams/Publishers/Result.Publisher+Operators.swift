// Combine's specialised operators on `Result.Publisher`: applied at once to the one result, they
// return another single-result publisher.

extension Result.Publisher {
    /// Transforms a success now.
    ///
    /// ```swift
    /// let doubled = Result<Int, TestError>.Publisher(2).map { $0 * 2 }
    /// ```
    @inlinable
    public func map<T>(_ transform: (Success) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Transforms a success now with a throwing closure.
    ///
    /// ```swift
    /// let parsed = Result<String, TestError>.Publisher("1").tryMap { try parse($0) }
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, any Error>.Publisher {
        trying(transform)
    }

    /// Transforms a failure now.
    ///
    /// ```swift
    /// let wrapped = Result<Int, TestError>.Publisher(.oops).mapError { AppError.wrapped($0) }
    /// ```
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Success, E>.Publisher {
        Result<Success, E>.Publisher(result.mapError(transform))
    }

    /// Replaces a failure with `output` now.
    ///
    /// ```swift
    /// let safe = Result<Int, TestError>.Publisher(.oops).replaceError(with: 0)
    /// ```
    @inlinable
    public func replaceError(with output: Success) -> Result<Success, Never>.Publisher {
        Result<Success, Never>.Publisher(.success((try? result.get()) ?? output))
    }
}

extension Result.Publisher where Failure == Never {
    /// Gives a result that cannot fail a failure type.
    ///
    /// ```swift
    /// let typed = Result<Int, Never>.Publisher(1).setFailureType(to: URLError.self)
    /// ```
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Success, E>.Publisher {
        Result<Success, E>.Publisher(result.mapError { never -> E in })
    }
}
