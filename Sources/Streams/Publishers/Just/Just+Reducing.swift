// Combine's specialised reducing and filtering operators on `Just`: with exactly one value the
// answer is known at once, so each returns a ready-made publisher instead of an operator stage.

extension Just where Output: Comparable {
    /// The one value is the smallest: returns `self`.
    ///
    /// ```swift
    /// let same: Just<Int> = Just(3).min()
    /// ```
    @inlinable
    public func min() -> Just<Output> {
        self
    }

    /// The one value is the largest: returns `self`.
    ///
    /// ```swift
    /// let same: Just<Int> = Just(3).max()
    /// ```
    @inlinable
    public func max() -> Just<Output> {
        self
    }
}

extension Just where Output: Equatable {
    /// Whether the value equals `output`.
    ///
    /// ```swift
    /// let found: Just<Bool> = Just(3).contains(3)   // true
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> {
        Just<Bool>(self.output == output)
    }
}

extension Just {
    /// Whether the value satisfies `predicate`, which is called once.
    ///
    /// ```swift
    /// let positive: Just<Bool> = Just(3).allSatisfy { $0 > 0 }   // true
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Whether the value satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let valid: Result<Bool, any Error>.Publisher = Just("7").tryAllSatisfy { try validate($0) }
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// Whether the value satisfies `predicate`, which is called once.
    ///
    /// ```swift
    /// let even: Just<Bool> = Just(3).contains { $0.isMultiple(of: 2) }   // false
    /// ```
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Whether the value satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let known: Result<Bool, any Error>.Publisher = Just("7").tryContains { try isKnown($0) }
    /// ```
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try predicate(output) })
    }

    /// The one value is the smallest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same: Just<String> = Just("b").min { $0.count < $1.count }
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// The one value is the largest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same: Just<String> = Just("b").max { $0.count < $1.count }
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// One value: a `Just` of 1.
    ///
    /// ```swift
    /// let one: Just<Int> = Just("a").count()
    /// ```
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Nothing if `predicate` holds for the value, else the value.
    ///
    /// ```swift
    /// let none: Optional<Int>.Publisher = Just(1).drop { $0 < 5 }
    /// ```
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// The one value is the last: returns `self`.
    ///
    /// ```swift
    /// let same: Just<Int> = Just(1).last()
    /// ```
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// The value if it satisfies `predicate`.
    ///
    /// ```swift
    /// let one: Optional<Int>.Publisher = Just(1).last { $0 > 0 }
    /// ```
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// A publisher that finishes at once without the value.
    ///
    /// ```swift
    /// let done: Empty<Int, Never> = Just(1).ignoreOutput()
    /// ```
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty<Output, Never>()
    }

    /// The value if it satisfies `predicate`.
    ///
    /// ```swift
    /// let one: Optional<Int>.Publisher = Just(1).prefix { $0 < 5 }
    /// ```
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? output : nil)
    }

    /// The value, after calling `predicate` once with the value twice; a thrown error becomes
    /// the failure.
    ///
    /// ```swift
    /// let same: Result<Int, any Error>.Publisher = Just(1).tryRemoveDuplicates { try same($0, $1) }
    /// ```
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            Result {
                _ = try predicate(output, output)
                return output
            })
    }

    /// There is a value: returns `self`.
    ///
    /// ```swift
    /// let same: Just<Int> = Just(1).replaceEmpty(with: 0)
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Combines `initialResult` with the value now.
    ///
    /// ```swift
    /// let total: Result<Int, Never>.Publisher = Just(5).reduce(10, +)   // 15
    /// ```
    @inlinable
    public func reduce<A>(_ initialResult: A, _ nextPartialResult: (A, Output) -> A) -> Result<A, Never>.Publisher {
        Result<A, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Combines `initialResult` with the value now; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let total: Result<Int, any Error>.Publisher = Just(5).tryReduce(10) { try add($0, $1) }
    /// ```
    @inlinable
    public func tryReduce<A>(
        _ initialResult: A,
        _ nextPartialResult: (A, Output) throws -> A
    ) -> Result<A, any Error>.Publisher {
        Result<A, any Error>.Publisher(Result { try nextPartialResult(initialResult, output) })
    }

    /// `elements`, then the value, as one sequence publisher.
    ///
    /// As in Combine, `elements` is iterated once and its `underestimatedCount` read twice (to
    /// reserve room, then by the append); its `count` is never read.
    ///
    /// ```swift
    /// let all: Publishers.Sequence<[Int], Never> = Just(3).prepend([1, 2])   // 1, 2, 3
    /// ```
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        Publishers.Sequence<[Output], Never>(sequence: elements + [output])
    }

    /// The value, then `elements`, as one sequence publisher.
    ///
    /// As in Combine, `elements` is iterated once and its `underestimatedCount` read once; its
    /// `count` is never read.
    ///
    /// ```swift
    /// let all: Publishers.Sequence<[Int], Never> = Just(1).append([2, 3])   // 1, 2, 3
    /// ```
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var all = [output]
        all.append(contentsOf: elements)
        return Publishers.Sequence<[Output], Never>(sequence: all)
    }
}
