// Combine's specialised reducing operators on `Optional.Publisher`: with at most one value the
// answer is known at once. A `nil` publisher stays `nil` (except for `collect()` and `count()`),
// and closures are never called for it.

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value equals `output`; nothing when there is no value.
    ///
    /// ```swift
    /// let found: Optional<Bool>.Publisher = Optional(3).publisher.contains(3)   // true
    /// ```
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// The value, if any, is the smallest: returns `self`.
    ///
    /// ```swift
    /// let same: Optional<Int>.Publisher = Optional(3).publisher.min()
    /// ```
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher {
        self
    }

    /// The value, if any, is the largest: returns `self`.
    ///
    /// ```swift
    /// let same: Optional<Int>.Publisher = Optional(3).publisher.max()
    /// ```
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// Whether the value satisfies `predicate`; nothing when there is no value.
    ///
    /// ```swift
    /// let positive: Optional<Bool>.Publisher = Optional(3).publisher.allSatisfy { $0 > 0 }
    /// ```
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The value in an array; an empty array when there is none.
    ///
    /// ```swift
    /// let all: Optional<[Int]>.Publisher = Optional(3).publisher.collect()   // [3]
    /// ```
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// The value, if any, is the smallest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same = Optional(3).publisher.min { $0 < $1 }
    /// ```
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// The value, if any, is the largest: returns `self` without calling the comparator.
    ///
    /// ```swift
    /// let same = Optional(3).publisher.max { $0 < $1 }
    /// ```
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// Whether the value satisfies `predicate`; nothing when there is no value.
    ///
    /// ```swift
    /// let even: Optional<Bool>.Publisher = Optional(3).publisher.contains { $0.isMultiple(of: 2) }
    /// ```
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// The number of values: 1, or 0 when there is none (Combine publishes nothing for `nil`).
    ///
    /// ```swift
    /// let zero: Optional<Int>.Publisher = Optional<String>.none.publisher.count()   // 0
    /// ```
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output == nil ? 0 : 1)
    }

    /// Nothing if `predicate` holds for the value, else the value.
    ///
    /// ```swift
    /// let none = Optional(1).publisher.drop { $0 < 5 }
    /// ```
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The value, if any, is the last: returns `self`.
    ///
    /// ```swift
    /// let same = Optional(1).publisher.last()
    /// ```
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        self
    }

    /// The value, if any, when it satisfies `predicate`.
    ///
    /// ```swift
    /// let one = Optional(1).publisher.last { $0 > 0 }
    /// ```
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// A publisher that finishes at once, without the value.
    ///
    /// ```swift
    /// let done: Empty<Int, Never> = Optional(1).publisher.ignoreOutput()
    /// ```
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty<Output, Never>()
    }

    /// The value, if any, when it satisfies `predicate`.
    ///
    /// ```swift
    /// let one = Optional(1).publisher.prefix { $0 < 5 }
    /// ```
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// Combines `initialResult` with the value, if any, now.
    ///
    /// ```swift
    /// let total: Optional<Int>.Publisher = Optional(5).publisher.reduce(10, +)   // 15
    /// ```
    @inlinable
    public func reduce<A>(_ initialResult: A, _ nextPartialResult: (A, Output) -> A) -> Optional<A>.Publisher {
        Optional<A>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Combines `initialResult` with the value, if any, now.
    ///
    /// ```swift
    /// let total: Optional<Int>.Publisher = Optional(5).publisher.scan(10, +)   // 15
    /// ```
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }
}
