extension Publisher where Output: Collection {
    /// Keeps, in every collection the upstream sends, the elements `isIncluded` accepts.
    ///
    /// One collection in, one array out (possibly empty): demand passes straight through.
    ///
    /// ```swift
    /// let adults = users.filterMany { $0.age >= 18 }   // [User] → [User]
    /// ```
    @inlinable
    public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool) -> Publishers.Map<Self, [Output.Element]> {
        map { $0.filter(isIncluded) }
    }
}
