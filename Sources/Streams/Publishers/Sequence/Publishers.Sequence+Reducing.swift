// Combine's specialised reducing operators on `Publishers.Sequence`: the answer is computed from
// the sequence at once and published by a single-result publisher. Collections are read no
// more than needed: `count()` uses the collection's own count, `last()` walks from the end.

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate`; stops at the first that does not.
    ///
    /// ```swift
    /// let positive: Result<Bool, Never>.Publisher = [1, 2].publisher.allSatisfy { $0 > 0 }
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// Whether every element satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let valid: Result<Bool, any Error>.Publisher = ["1"].publisher.tryAllSatisfy { try validate($0) }
    /// ```
    @inlinable
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
    }

    /// Whether an element satisfies `predicate`; stops at the first that does.
    ///
    /// ```swift
    /// let even: Result<Bool, Never>.Publisher = [1, 2].publisher.contains { $0.isMultiple(of: 2) }
    /// ```
    @inlinable
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Whether an element satisfies `predicate`; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let known: Result<Bool, any Error>.Publisher = ["1"].publisher.tryContains { try isKnown($0) }
    /// ```
    @inlinable
    public func tryContains(where predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
    }

    /// A publisher that finishes at once, without the elements (which are not read).
    ///
    /// ```swift
    /// let done: Empty<Int, Never> = [1, 2].publisher.ignoreOutput()
    /// ```
    @inlinable
    public func ignoreOutput() -> Empty<Elements.Element, Failure> {
        Empty<Elements.Element, Failure>()
    }

    /// Combines all elements into one result, now.
    ///
    /// ```swift
    /// let total: Result<Int, Never>.Publisher = [1, 2, 3].publisher.reduce(0, +)   // 6
    /// ```
    @inlinable
    public func reduce<A>(
        _ initialResult: A,
        _ nextPartialResult: @escaping (A, Elements.Element) -> A
    ) -> Result<A, Failure>.Publisher {
        Result<A, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// Combines all elements into one result, now; a thrown error becomes the failure.
    ///
    /// ```swift
    /// let total: Result<Int, any Error>.Publisher = [1, 2].publisher.tryReduce(0) { try add($0, $1) }
    /// ```
    @inlinable
    public func tryReduce<A>(
        _ initialResult: A,
        _ nextPartialResult: @escaping (A, Elements.Element) throws -> A
    ) -> Result<A, any Error>.Publisher {
        Result<A, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Whether an element equals `output`; stops at the first that does.
    ///
    /// ```swift
    /// let found: Result<Bool, Never>.Publisher = [1, 2].publisher.contains(2)   // true
    /// ```
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The smallest element by `areInIncreasingOrder`, if any.
    ///
    /// ```swift
    /// let shortest: Optional<String>.Publisher = ["ab", "c"].publisher.min { $0.count < $1.count }
    /// ```
    @inlinable
    public func min(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// The largest element by `areInIncreasingOrder`, if any.
    ///
    /// ```swift
    /// let longest: Optional<String>.Publisher = ["ab", "c"].publisher.max { $0.count < $1.count }
    /// ```
    @inlinable
    public func max(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The smallest element, if any.
    ///
    /// ```swift
    /// let smallest: Optional<Int>.Publisher = [3, 1, 2].publisher.min()   // 1
    /// ```
    @inlinable
    public func min() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.min())
    }

    /// The largest element, if any.
    ///
    /// ```swift
    /// let largest: Optional<Int>.Publisher = [3, 1, 2].publisher.max()   // 3
    /// ```
    @inlinable
    public func max() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements, now.
    ///
    /// ```swift
    /// let size: Result<Int, URLError>.Publisher = Set([1, 2]).publisher.setFailureType(to: URLError.self).count()
    /// ```
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The number of elements, read from the collection in constant time.
    ///
    /// ```swift
    /// let size: Result<Int, URLError>.Publisher = [1, 2].publisher.setFailureType(to: URLError.self).count()
    /// ```
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The number of elements, read from the collection in constant time.
    ///
    /// ```swift
    /// let size: Just<Int> = [1, 2].publisher.count()   // 2
    /// ```
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(sequence.count)
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element, if any.
    ///
    /// ```swift
    /// let last: Optional<Int>.Publisher = [1, 2].publisher.last()   // 2
    /// ```
    @inlinable
    public func last() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last)
    }

    /// The last element that satisfies `predicate`, searching from the end.
    ///
    /// ```swift
    /// let odd: Optional<Int>.Publisher = [1, 2, 3, 4].publisher.last { !$0.isMultiple(of: 2) }   // 3
    /// ```
    @inlinable
    public func last(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
    }
}
