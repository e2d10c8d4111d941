import Streams

extension Publisher where Output: Collection {
    /// Keeps, in every collection the upstream sends, the elements `isIncluded` accepts.
    ///
    /// One collection in, one array out (possibly empty): demand passes straight through. Typed
    /// `AnyPublisher`, as CombineExt declares it.
    ///
    /// ```swift
    /// let adults = users.filterMany { $0.age >= 18 }   // [User] → [User]
    /// ```
    @inlinable
    public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool) -> AnyPublisher<[Output.Element], Failure> {
        map { $0.filter(isIncluded) }.eraseToAnyPublisher()
    }
}
