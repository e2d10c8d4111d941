// Combine's specialised operators on `Optional.Publisher`: applied at once to the value, if any,
// they return another publisher of at most one value. Closures run at most once, never for `nil`.

extension Optional.Publisher {
    /// Transforms the value, if any, now.
    ///
    /// ```swift
    /// let doubled = Optional(2).publisher.map { $0 * 2 }
    /// ```
    @inlinable
    public func map<T>(_ transform: (Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Keeps the value, if any, when it satisfies `isIncluded`.
    ///
    /// ```swift
    /// let none = Optional(2).publisher.filter { $0 > 5 }
    /// ```
    @inlinable
    public func filter(_ isIncluded: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Transforms the value, if any, keeping a non-`nil` result.
    ///
    /// ```swift
    /// let number = Optional("7").publisher.compactMap { Int($0) }
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: (Wrapped) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// At most one value has no duplicates: returns `self`.
    ///
    /// ```swift
    /// let same: Optional<Int>.Publisher = Optional(1).publisher.removeDuplicates()
    /// ```
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher {
        self
    }
}

extension Optional.Publisher {
    /// At most one value has no duplicates: returns `self` without calling `predicate`.
    ///
    /// ```swift
    /// let same = Optional(1).publisher.removeDuplicates { $0 == $1 }
    /// ```
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        self
    }

    /// The value only when `count` is 0.
    ///
    /// ```swift
    /// let none = Optional(1).publisher.dropFirst()
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst requires a count of zero or more, got \(count)")
        return Optional<Output>.Publisher(count == 0 ? output : nil)
    }

    /// The value, if any, is the first: returns `self`.
    ///
    /// ```swift
    /// let same = Optional(1).publisher.first()
    /// ```
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        self
    }

    /// The value, if any, when it satisfies `predicate`.
    ///
    /// ```swift
    /// let none = Optional(1).publisher.first { $0 > 5 }
    /// ```
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// The value only when `index` is 0.
    ///
    /// ```swift
    /// let one = Optional(1).publisher.output(at: 0)
    /// ```
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:) requires a position of zero or more, got \(index)")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// The value only when `range` contains position 0.
    ///
    /// `range` is taken relative to `0..<Int.max`. As in Combine, it traps when that starts
    /// below 0, and when it ends at `Int.max - 1` or later: `output(in: 0...)` and
    /// `output(in: 0..<(.max - 1))` trap, `output(in: 0..<(.max - 2))` is the value.
    ///
    /// ```swift
    /// let one = Optional(1).publisher.output(in: 0..<3)
    /// ```
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        precondition(positions.lowerBound >= 0, "output(in:) requires positions of zero or more, got \(positions)")
        precondition(
            positions.upperBound < Int.max - 1,
            "output(in:) on an optional's publisher requires a range that ends before Int.max - 1, got \(positions)")
        return Optional<Output>.Publisher(positions.contains(0) ? output : nil)
    }

    /// The value only when `maxLength` is at least 1.
    ///
    /// ```swift
    /// let one = Optional(1).publisher.prefix(2)
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix requires a length of zero or more, got \(maxLength)")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// An optional cannot fail: returns `self`.
    ///
    /// ```swift
    /// let same = Optional(1).publisher.replaceError(with: 0)
    /// ```
    @inlinable
    public func replaceError(with output: Output) -> Optional<Output>.Publisher {
        self
    }

    /// The value, or `output` when there is none.
    ///
    /// ```swift
    /// let zero: Just<Int> = Optional<Int>.none.publisher.replaceEmpty(with: 0)
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        Just<Output>(self.output ?? output)
    }

    /// An optional cannot fail: returns `self`.
    ///
    /// ```swift
    /// let same = Optional(1).publisher.retry(3)
    /// ```
    @inlinable
    public func retry(_ times: Int) -> Optional<Output>.Publisher {
        self
    }
}
