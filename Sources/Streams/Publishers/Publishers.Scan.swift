extension Publisher {
    /// Sends a running result: `nextPartialResult` combines the previous result (at first
    /// `initialResult`) with each value.
    ///
    /// ```swift
    /// let totals = [1, 2, 3].publisher.scan(0, +)   // 1, 3, 6
    /// ```
    @inlinable
    public func scan<T>(
        _ initialResult: T,
        _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}

extension Publishers {
    /// A publisher that sends the running result of combining its upstream's values.
    ///
    /// ```swift
    /// let totals = Publishers.Scan(upstream: amounts, initialResult: 0, nextPartialResult: +)
    /// ```
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are combined.
        public let upstream: Upstream

        /// The result before the first value.
        public let initialResult: Output

        /// Combines the previous result with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Makes a publisher of the running result over `upstream`'s values.
        ///
        /// ```swift
        /// let totals = Publishers.Scan(upstream: amounts, initialResult: 0, nextPartialResult: +)
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber`; each subscription starts again from `initialResult`.
        ///
        /// As in Combine, scan is pass-through: the downstream receives the upstream's own
        /// subscription, and the running result is the only state.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: ScanSubscriber(downstream: subscriber, result: initialResult, next: nextPartialResult))
        }
    }
}

/// Scan's subscriber. The upstream never calls `receive(_:)` concurrently, so the running result
/// needs no lock; the upstream subscription goes straight downstream.
@usableFromInline
final class ScanSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let next: (Downstream.Input, Input) -> Downstream.Input
    // Touched only from `receive(_:)`, which upstream calls serially.
    @usableFromInline
    var result: Downstream.Input

    @inlinable
    init(
        downstream: Downstream, result: Downstream.Input,
        next: @escaping (Downstream.Input, Input) -> Downstream.Input
    ) {
        self.downstream = downstream
        self.result = result
        self.next = next
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        result = next(result, input)
        return downstream.receive(result)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "Scan" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["downstream": downstream, "result": result]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
