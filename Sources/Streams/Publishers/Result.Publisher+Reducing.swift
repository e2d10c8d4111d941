// Combine's specialised reducing operators on `Result.Publisher`: with at most one value the
// answer is known at once, so each returns another `Result.Publisher` (or an `Empty`). A failure
// passes through unchanged; the `try` forms turn a thrown error into the failure.

extension Result.Publisher where Output: Equatable {
    /// Whether the success equals `output`.
    ///
    /// ```swift
    /// let found: Result<Bool, TestError>.Publisher = Result<Int, TestError>.Publisher(3).contains(3)
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// One result has no duplicates: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).removeDuplicates()
    /// ```
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher where Output: Comparable {
    /// The one value is the smallest: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).min()
    /// ```
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher {
        self
    }

    /// The one value is the largest: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).max()
    /// ```
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher {
        self
    }
}

extension Result.Publisher {
    /// Applies `body` to a success; a thrown error, like an existing failure, becomes the failure.
    @inlinable
    func trying<T>(_ body: (Success) throws -> T) -> Result<T, any Error>.Publisher {
        switch result {
        case .success(let value):
            Result<T, any Error>.Publisher(Result<T, any Error> { try body(value) })
        case .failure(let error):
            Result<T, any Error>.Publisher(.failure(error))
        }
    }

    /// Whether the success satisfies `predicate`.
    ///
    /// ```swift
    /// let positive = Result<Int, TestError>.Publisher(3).allSatisfy { $0 > 0 }   // true
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the success satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let valid = Result<String, TestError>.Publisher("7").tryAllSatisfy { try validate($0) }
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        trying(predicate)
    }

    /// Whether the success satisfies `predicate`.
    ///
    /// ```swift
    /// let even = Result<Int, TestError>.Publisher(3).contains { $0.isMultiple(of: 2) }   // false
    /// ```
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Whether the success satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let known = Result<String, TestError>.Publisher("7").tryContains { try isKnown($0) }
    /// ```
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        trying(predicate)
    }

    /// The success in a one-element array.
    ///
    /// ```swift
    /// let all: Result<[Int], TestError>.Publisher = Result<Int, TestError>.Publisher(3).collect()
    /// ```
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// The one value is the smallest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).min { $0 < $1 }
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The success, after calling the comparator once with it twice; a thrown error becomes
    /// the failure.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).tryMin { try compare($0, $1) }
    /// ```
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        trying { value in
            _ = try areInIncreasingOrder(value, value)
            return value
        }
    }

    /// The one value is the largest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).max { $0 < $1 }
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The success, after calling the comparator once with it twice; a thrown error becomes
    /// the failure.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).tryMax { try compare($0, $1) }
    /// ```
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryMin(by: areInIncreasingOrder)
    }

    /// 1 for a success; a failure passes through.
    ///
    /// ```swift
    /// let one = Result<String, TestError>.Publisher("a").count()
    /// ```
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// The one value is the first: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).first()
    /// ```
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher {
        self
    }

    /// The one value is the last: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).last()
    /// ```
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher {
        self
    }

    /// A publisher that finishes at once, without the value.
    ///
    /// As in Combine, the `Empty` it returns finishes even when the result is a failure: the
    /// error is lost. Use `Publishers.IgnoreOutput(upstream:)` to keep it.
    ///
    /// ```swift
    /// let done: Empty<Int, TestError> = Result<Int, TestError>.Publisher(3).ignoreOutput()
    /// ```
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }

    /// One result has no duplicates: returns `self` without calling `predicate`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).removeDuplicates { $0 == $1 }
    /// ```
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// The success, after calling `predicate` once with it twice; a thrown error becomes the
    /// failure.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).tryRemoveDuplicates { try same($0, $1) }
    /// ```
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryMin(by: predicate)
    }

    /// A result is never empty: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(3).replaceEmpty(with: 0)
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Subscribing again gives the same result: returns `self`.
    ///
    /// ```swift
    /// let same = Result<Int, TestError>.Publisher(.failure(.oops)).retry(3)
    /// ```
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Combines `initialResult` with the success now.
    ///
    /// ```swift
    /// let total = Result<Int, TestError>.Publisher(5).reduce(10, +)   // 15
    /// ```
    @inlinable
    public func reduce<A>(_ initialResult: A, _ nextPartialResult: (A, Output) -> A) -> Result<A, Failure>.Publisher {
        Result<A, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success now; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let total = Result<Int, TestError>.Publisher(5).tryReduce(10) { try add($0, $1) }
    /// ```
    @inlinable
    public func tryReduce<A>(
        _ initialResult: A,
        _ nextPartialResult: (A, Output) throws -> A
    ) -> Result<A, any Error>.Publisher {
        trying { try nextPartialResult(initialResult, $0) }
    }

    /// Combines `initialResult` with the success now.
    ///
    /// ```swift
    /// let total = Result<Int, TestError>.Publisher(5).scan(10, +)   // 15
    /// ```
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the success now; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let total = Result<Int, TestError>.Publisher(5).tryScan(10) { try add($0, $1) }
    /// ```
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        trying { try nextPartialResult(initialResult, $0) }
    }
}
