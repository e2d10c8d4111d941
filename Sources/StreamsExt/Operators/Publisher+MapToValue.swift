import Streams

extension Publisher {
    /// Replaces every value with `value`, as CombineExt's `mapToValue(_:)` does.
    ///
    /// A `map` that ignores its input: demand, completion and cancellation pass straight through.
    ///
    /// ```swift
    /// let taps = PassthroughSubject<Void, Never>()
    /// let cancellable = taps.mapToValue("tapped").sink { print($0) }
    /// taps.send()   // prints "tapped"
    /// ```
    @inlinable
    public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
        map { _ in value }
    }
}
