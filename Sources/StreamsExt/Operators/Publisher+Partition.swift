import Streams

extension Publisher {
    /// One of the two publishers `partition(_:)` returns.
    ///
    /// ```swift
    /// let (evens, odds): (PassthroughSubject<Int, Never>.Partition, PassthroughSubject<Int, Never>.Partition) =
    ///     numbers.partition { $0.isMultiple(of: 2) }
    /// ```
    public typealias Partition = AnyPublisher<Output, Failure>

    /// Splits this publisher's values in two: those for which `predicate` holds, and the others.
    /// CombineExt's `partition(_:)`.
    ///
    /// - The two publishers share one subscription to this publisher (through `share()`): it is
    ///   made when the first of them is subscribed to, `predicate` runs once per value, and it is
    ///   cancelled when no subscriber is left. Values sent before the second one is subscribed to
    ///   do not reach it, so subscribe to both before the values start.
    /// - Completion and failure reach both.
    ///
    /// ```
    /// upstream:   -1-2-3-4-|
    /// matches:    ---2---4-|     (even)
    /// nonMatches: -1---3---|
    /// ```
    ///
    /// ```swift
    /// let (evens, odds) = numbers.partition { $0.isMultiple(of: 2) }
    /// ```
    public func partition(_ predicate: @escaping (Output) -> Bool) -> (matches: Partition, nonMatches: Partition) {
        let shared = map { (value: $0, matches: predicate($0)) }.share()
        let matches = shared.compactMap { $0.matches ? $0.value : nil }.eraseToAnyPublisher()
        let nonMatches = shared.compactMap { $0.matches ? nil : $0.value }.eraseToAnyPublisher()
        return (matches, nonMatches)
    }
}
