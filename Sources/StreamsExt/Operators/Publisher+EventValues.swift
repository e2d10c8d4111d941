import Streams

extension Publisher where Output: EventConvertible, Failure == Never {
    /// The values of a stream of events: `.value` events pass, the others are dropped (the
    /// stream ends only when the upstream does).
    ///
    /// Call it as `values()`. Its one parameter, unnamed and defaulted, exists only so that the
    /// method can sit beside the `values` property (the async sequence of any publisher that
    /// cannot fail): Swift allows no property and argument-less method of the same name. Returns
    /// the type-erased publisher CombineExt declares; dropped events ask upstream for one more.
    ///
    /// ```swift
    /// let events = request.materialize().share()
    /// let users = events.values()       // the values
    /// let errors = events.failures()    // the failure, if any
    /// ```
    @inlinable
    public func values(_: Void = ()) -> AnyPublisher<Output.Output, Never> {
        compactMap { input in
            if case .value(let value) = input.event { value } else { nil }
        }.eraseToAnyPublisher()
    }
}
