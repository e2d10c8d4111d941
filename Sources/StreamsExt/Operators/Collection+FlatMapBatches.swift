import Streams

extension Collection where Element: Publisher {
    /// Runs the publishers `size` at a time, one batch after another, and sends each batch's
    /// results zipped into arrays in the collection's order. CombineExt's `flatMapBatches(of:)`.
    ///
    /// - A batch is subscribed to only once the one before it has finished; within a batch the
    ///   publishers run together and are zipped: a batch of publishers that send one value each
    ///   sends one array. The last batch may be smaller than `size`.
    /// - Any failure fails the stream at once; the later batches are never subscribed to.
    /// - An empty collection finishes at once, sending nothing.
    /// - `size` must be at least 1: anything less stops the program.
    ///
    /// ```
    /// [a, b, c] in batches of 2:
    /// a:      -1|
    /// b:      ---2|
    /// c:          -3|
    /// result: ---[1,2]-[3]|
    /// ```
    ///
    /// ```swift
    /// let pages = pageRequests.flatMapBatches(of: 4)   // four requests at a time
    /// ```
    public func flatMapBatches(of size: Int) -> AnyPublisher<[Element.Output], Element.Failure> {
        precondition(size > 0, "flatMapBatches(of:) needs a batch size of at least 1, not \(size)")
        var ranges: [Range<Index>] = []
        var start = startIndex
        while start != endIndex {
            let end = index(start, offsetBy: size, limitedBy: endIndex) ?? endIndex
            ranges.append(start..<end)
            start = end
        }
        return Publishers.Sequence<[Range<Index>], Element.Failure>(sequence: ranges)
            .flatMap(maxPublishers: .max(1)) { self[$0].zip() }
            .eraseToAnyPublisher()
    }
}
