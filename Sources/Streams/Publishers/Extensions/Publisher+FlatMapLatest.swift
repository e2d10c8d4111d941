extension Publisher {
    /// Maps every value to a publisher and follows only the newest one: when a value arrives,
    /// the publisher made from the previous one is cancelled. It is `map(transform)` followed
    /// by `switchToLatest()`, with that operator's rules for demand and completion (the result
    /// finishes once the upstream and the newest inner publisher have finished, and fails as soon
    /// as either fails).
    ///
    /// ```swift
    /// let results = $query
    ///     .flatMapLatest { query in api.search(query) }   // an older search is cancelled
    /// ```
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }
}
