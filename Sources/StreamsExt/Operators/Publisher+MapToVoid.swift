import Streams

extension Publisher {
    /// Replaces every value with `()`, keeping only the fact that a value arrived.
    ///
    /// A `map` that ignores its input: demand, completion and cancellation pass straight through.
    ///
    /// ```swift
    /// let saved: AnyPublisher<Void, Never> = document.$revision.mapToVoid().eraseToAnyPublisher()
    /// ```
    @inlinable
    public func mapToVoid() -> Publishers.Map<Self, Void> {
        map { _ in () }
    }
}
