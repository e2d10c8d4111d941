/// A publisher that sends one value to each subscriber, then finishes.
///
/// The value goes out on the subscriber's first request for one or more values.
///
/// ```swift
/// let cancellable = Just("hello").sink { print($0) }   // "hello"
/// ```
public struct Just<Output>: Publisher {
    /// `Just` never fails.
    public typealias Failure = Never

    /// The value sent to every subscriber.
    public let output: Output

    /// Makes a publisher that sends `output` and finishes.
    ///
    /// ```swift
    /// let one = Just(1)
    /// ```
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Sends the subscription; the value and `.finished` follow the first request.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(name: "Just", value: output, downstream: subscriber))
    }

    /// `.success(output)`: the value, then `.finished`.
    ///
    /// ```swift
    /// Just(1)._immediateOutcome()   // .success(1)
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Never>? { .success(output) }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}
