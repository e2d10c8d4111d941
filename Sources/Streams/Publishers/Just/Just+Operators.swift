// Combine's specialised operators on `Just`: applied at once to the one value, they return
// another single-value publisher instead of wrapping `Just` in an operator stage.

extension Just {
    /// Transforms the value now; the result is another `Just`.
    ///
    /// ```swift
    /// let doubled: Just<Int> = Just(2).map { $0 * 2 }
    /// ```
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Transforms the value now with a throwing closure.
    ///
    /// ```swift
    /// let parsed: Result<Int, any Error>.Publisher = Just("42").tryMap { try parse($0) }
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result { try transform(output) }.publisher
    }

    /// Gives the value a failure type; `Just` never fails, so `transform` is never called.
    ///
    /// ```swift
    /// let typed: Result<Int, URLError>.Publisher = Just(1).mapError { _ in URLError(.unknown) }
    /// ```
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Gives the value a failure type.
    ///
    /// ```swift
    /// let typed: Result<Int, URLError>.Publisher = Just(1).setFailureType(to: URLError.self)
    /// ```
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Combines `initialResult` with the value now.
    ///
    /// ```swift
    /// let total = Just(5).scan(10, +)   // 15
    /// ```
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Combines `initialResult` with the value now, with a throwing closure.
    ///
    /// ```swift
    /// let total = Just(5).tryScan(10) { try add($0, $1) }
    /// ```
    @inlinable
    public func tryScan<T>(
        _ initialResult: T,
        _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try nextPartialResult(initialResult, output) }.publisher
    }

    /// Keeps the value if it satisfies `isIncluded`.
    ///
    /// ```swift
    /// let none: Optional<Int>.Publisher = Just(3).filter { $0 > 5 }
    /// ```
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Transforms the value, keeping a non-`nil` result.
    ///
    /// ```swift
    /// let number: Optional<Int>.Publisher = Just("7").compactMap { Int($0) }
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// A single value has no duplicates: returns `self`.
    ///
    /// ```swift
    /// let same = Just(1).removeDuplicates { $0 == $1 }
    /// ```
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// `Just` cannot fail: returns `self`.
    ///
    /// ```swift
    /// let same = Just(1).replaceError(with: 0)
    /// ```
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    /// `Just` cannot fail: returns `self`.
    ///
    /// ```swift
    /// let same = Just(1).retry(3)
    /// ```
    @inlinable
    public func retry(_ retries: Int) -> Just<Output> {
        self
    }
}

extension Just {
    /// The one value in an array.
    ///
    /// ```swift
    /// let all: Just<[Int]> = Just(1).collect()   // [1]
    /// ```
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// `self`: the one value is the first.
    ///
    /// ```swift
    /// let same: Just<Int> = Just(1).first()
    /// ```
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// The value if it satisfies `predicate`.
    ///
    /// ```swift
    /// let none: Optional<Int>.Publisher = Just(1).first { $0 > 5 }
    /// ```
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// Nothing if at least one value is dropped, else the value.
    ///
    /// ```swift
    /// let none: Optional<Int>.Publisher = Just(1).dropFirst()
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).dropFirst(count)
    }

    /// The value if `maxLength` is at least one.
    ///
    /// ```swift
    /// let one: Optional<Int>.Publisher = Just(1).prefix(3)
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).prefix(maxLength)
    }

    /// The value if `index` is 0.
    ///
    /// ```swift
    /// let one: Optional<Int>.Publisher = Just(1).output(at: 0)
    /// ```
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output).output(at: index)
    }

    /// The value if `range` contains position 0.
    ///
    /// ```swift
    /// let one: Optional<Int>.Publisher = Just(1).output(in: 0..<2)
    /// ```
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.contains(0) ? output : nil)
    }

    /// The value followed by `elements`.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
    /// ```
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        Publishers.Sequence(sequence: [output] + elements)
    }

    /// `elements` followed by the value.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = Just(3).prepend(1, 2)
    /// ```
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        Publishers.Sequence(sequence: elements + [output])
    }
}

extension Just where Output: Equatable {
    /// A single value has no duplicates: returns `self`.
    ///
    /// ```swift
    /// let same = Just(1).removeDuplicates()
    /// ```
    @inlinable
    public func removeDuplicates() -> Just<Output> {
        self
    }
}
