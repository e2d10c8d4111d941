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
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var result = initialResult
        return Publishers.Sequence<[T], Failure>(
            sequence: sequence.map { element in
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

    /// Drops elements while `predicate` holds, now.
    ///
    /// ```swift
    /// let rest = [1, 2, 5, 1].publisher.drop { $0 < 3 }   // publishes 5, 1
    /// ```
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Keeps elements while `predicate` holds, now.
    ///
    /// ```swift
    /// let small = [1, 2, 5, 1].publisher.prefix { $0 < 3 }   // publishes [1, 2]
    /// ```
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
    }

    /// Replaces `nil` elements with `output`, now.
    ///
    /// ```swift
    /// let filled = [1, nil, 3].publisher.replaceNil(with: 0)   // publishes [1, 0, 3]
    /// ```
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
    where Elements.Element == T? {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The elements in `range`: the collection is sliced once and the slice copied.
    ///
    /// ```swift
    /// let text = "abc"
    /// let head = text.publisher.output(in: text.startIndex..<text.index(after: text.startIndex))   // "a"
    /// ```
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The element at `index`, or nothing when the collection has no such index.
    ///
    /// ```swift
    /// let second = "abc".publisher.output(at: "abc".index(after: "abc".startIndex))   // "b"
    /// ```
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The elements in `range`: the collection is sliced once and the slice copied.
    ///
    /// ```swift
    /// let middle = [1, 2, 3, 4].publisher.output(in: 1..<3)   // publishes [2, 3]
    /// ```
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Elements.Element], Failure> {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The element at `index`, or nothing when it is out of bounds.
    ///
    /// ```swift
    /// let second: Optional<Int>.Publisher = [1, 2, 3].publisher.output(at: 1)   // 2
    /// ```
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
        Optional<Elements.Element>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// `elements` followed by `tail`, in a collection of this publisher's type.
    @inlinable
    static func joined<S: Swift.Sequence>(_ elements: S, _ tail: Elements) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var joined = Elements()
        joined.reserveCapacity(tail.count + elements.underestimatedCount)
        joined.append(contentsOf: elements)
        joined.append(contentsOf: tail)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// This sequence followed by `elements`, in a collection of the same type.
    @inlinable
    func appending<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return Publishers.Sequence<Elements, Failure>(sequence: joined)
    }

    /// Puts elements before the sequence, now.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1, 2)   // 1, 2, 3, 4
    /// ```
    @inlinable
    public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        Self.joined(elements, sequence)
    }

    /// Puts the elements of `elements` before the sequence, now.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = [3, 4].publisher.prepend(1...2)   // 1, 2, 3, 4
    /// ```
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        Self.joined(elements, sequence)
    }

    /// Puts `publisher`'s sequence before this one, now.
    ///
    /// ```swift
    /// let more = [3, 4].publisher.prepend([1, 2].publisher)   // publishes 1, 2, 3, 4
    /// ```
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        publisher.appending(sequence)
    }

    /// Appends elements to the sequence, now.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3, 4)   // 1, 2, 3, 4
    /// ```
    @inlinable
    public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
        appending(elements)
    }

    /// Appends the elements of `elements` to the sequence, now.
    ///
    /// ```swift
    /// let more: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append(3...4)   // 1, 2, 3, 4
    /// ```
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where S.Element == Elements.Element {
        appending(elements)
    }

    /// Appends `publisher`'s sequence to this one, now.
    ///
    /// ```swift
    /// let more = [1, 2].publisher.append([3, 4].publisher)   // publishes 1, 2, 3, 4
    /// ```
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        appending(publisher.sequence)
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
        return Publishers.Sequence<[Elements.Element], Failure>(
            sequence: sequence.filter { element in
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
