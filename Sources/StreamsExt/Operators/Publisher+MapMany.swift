import Streams

extension Publisher where Output: Collection {
    /// Transforms every element of every collection the upstream sends, as `map` on each.
    ///
    /// One collection in, one array out: demand passes straight through.
    ///
    /// ```swift
    /// let names = users.mapMany(\.name)   // [User] → [String]
    /// ```
    @inlinable
    public func mapMany<Result>(_ transform: @escaping (Output.Element) -> Result) -> Publishers.Map<Self, [Result]> {
        map { $0.map(transform) }
    }
}
