// Combine's specialised operators on `Publishers.Sequence`: they work on the sequence itself,
// eagerly, and return another `Publishers.Sequence` instead of adding an operator stage.

extension Publishers.Sequence {
    /// Maps the elements now: the result publishes the mapped array.
    ///
    /// ```swift
    /// let doubled: Publishers.Sequence<[Int], Never> = [1, 2].publisher.map { $0 * 2 }
    /// ```
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Filters the elements now.
    ///
    /// ```swift
    /// let evens = (1...6).publisher.filter { $0.isMultiple(of: 2) }   // publishes [2, 4, 6]
    /// ```
    @inlinable
    public func filter(_ isIncluded: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Maps the elements now, dropping `nil` results.
    ///
    /// ```swift
    /// let numbers = ["1", "x", "3"].publisher.compactMap { Int($0) }   // publishes [1, 3]
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: (Elements.Element) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Computes the running results now.
    ///
    /// ```swift
    /// let totals = [1, 2, 3].publisher.scan(0, +)   // publishes [1, 3, 6]
    /// ```
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        var result = initialResult
        return Publishers.Sequence<[T], Failure>(sequence: sequence.map { element in
            result = nextPartialResult(result, element)
            return result
        })
    }

    /// Drops the first `count` elements.
    ///
    /// ```swift
    /// let rest = [1, 2, 3].publisher.dropFirst()   // publishes 2, 3
    /// ```
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Keeps the first `maxLength` elements.
    ///
    /// ```swift
    /// let firstTwo = [1, 2, 3].publisher.prefix(2)   // publishes 1, 2
    /// ```
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Gives the publisher another failure type.
    ///
    /// ```swift
    /// let typed = [1, 2].publisher.setFailureType(to: URLError.self)
    /// ```
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }

    /// Appends elements to the sequence.
    ///
    /// ```swift
    /// let more = [1, 2].publisher.append(3, 4)   // publishes [1, 2, 3, 4]
    /// ```
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence) + elements)
    }

    /// Puts elements before the sequence.
    ///
    /// ```swift
    /// let more = [3, 4].publisher.prepend(1, 2)   // publishes [1, 2, 3, 4]
    /// ```
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: elements + Array(sequence))
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Drops consecutive duplicates now.
    ///
    /// ```swift
    /// let changes = [1, 1, 2, 1].publisher.removeDuplicates()   // publishes [1, 2, 1]
    /// ```
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var previous: Elements.Element?
        return Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter { element in
            defer { previous = element }
            return previous != element
        })
    }
}

extension Publishers.Sequence {
    /// All the elements in one array, now.
    ///
    /// ```swift
    /// let all: Result<[Int], Never>.Publisher = [1, 2].publisher.collect()
    /// ```
    @inlinable
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        Result<[Elements.Element], Failure>.Publisher(.success(Array(sequence)))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The first element, if any, now.
    ///
    /// ```swift
    /// let first: Optional<Int>.Publisher = [3, 4].publisher.first()
    /// ```
    @inlinable
    public func first() -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first { _ in true })
    }

    /// The first element that satisfies `predicate`, if any, now.
    ///
    /// ```swift
    /// let even: Optional<Int>.Publisher = [1, 2, 3].publisher.first { $0.isMultiple(of: 2) }
    /// ```
    @inlinable
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
    }
}
