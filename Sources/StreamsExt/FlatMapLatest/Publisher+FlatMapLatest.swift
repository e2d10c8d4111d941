import Streams

extension Publisher {
    /// Turns every value into a publisher and passes on the values of the newest one only: each
    /// new value cancels the inner publisher of the previous one. `map(transform)` followed by
    /// `switchToLatest()`, with exactly its behaviour.
    ///
    /// - It finishes once this publisher and the current inner publisher have finished; a
    ///   failure of either fails it.
    /// - Demand: the downstream's outstanding demand goes to each new inner publisher; this
    ///   publisher is asked for all its values.
    /// - Cancelling cancels this publisher and the current inner one.
    ///
    /// ```
    /// query:   --a-----b--c------|
    /// inner a:   -1-2-3
    /// inner b:         -4-(cancelled)
    /// inner c:            -5-6-|
    /// result:  ---1-2--4---5-6-|
    /// ```
    ///
    /// ```swift
    /// let results = $query.flatMapLatest { query in search(query) }   // only the newest search counts
    /// ```
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }
}
