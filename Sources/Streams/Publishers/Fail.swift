/// A publisher that fails at once with an error.
///
/// The failure follows the subscription without waiting for demand.
///
/// ```swift
/// let failing = Fail<Int, URLError>(error: URLError(.notConnectedToInternet))
/// ```
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error sent to every subscriber.
    public let error: Failure

    /// Makes a publisher that fails with `error`.
    ///
    /// ```swift
    /// let failing = Fail<Int, TestError>(error: .timeout)
    /// ```
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Makes a publisher that fails with `failure`, with the output type spelled out.
    ///
    /// ```swift
    /// let failing = Fail(outputType: Int.self, failure: TestError.timeout)
    /// ```
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Sends ``Subscriptions/empty`` and then the failure.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }

    /// `.failure(error)`: the failure alone.
    ///
    /// ```swift
    /// Fail<Int, URLError>(error: URLError(.timedOut))._immediateOutcome()   // .failure(…)
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Failure>? { .failure(error) }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}
