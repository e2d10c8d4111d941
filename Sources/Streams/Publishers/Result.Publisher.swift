extension Result {
    /// A publisher that sends this result's value and finishes, or fails with its error.
    ///
    /// ```swift
    /// let parsed: Result<Int, ParseError> = .success(42)
    /// let cancellable = parsed.publisher.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// ```
    @inlinable
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher of one result: a success is sent on the first request, followed by
    /// `.finished`; a failure is sent at once.
    ///
    /// ```swift
    /// let one = Result<Int, Never>.Publisher(1)
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result every subscriber receives.
        public let result: Result<Success, Failure>

        /// Makes a publisher of `result`.
        ///
        /// ```swift
        /// let publisher = Result<Int, TestError>.Publisher(.failure(.oops))
        /// ```
        @inlinable
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Makes a publisher of a success.
        ///
        /// ```swift
        /// let publisher = Result<Int, TestError>.Publisher(42)
        /// ```
        @inlinable
        public init(_ output: Success) {
            self.init(.success(output))
        }

        /// Makes a publisher of a failure.
        ///
        /// ```swift
        /// let publisher = Result<Int, TestError>.Publisher(TestError.oops)
        /// ```
        @inlinable
        public init(_ failure: Failure) {
            self.init(.failure(failure))
        }

        /// Sends the result to `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let value):
                subscriber.receive(subscription: JustSubscription(name: "Once", value: value, downstream: subscriber))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }

        /// The value and `.finished`, or the failure alone.
        ///
        /// ```swift
        /// Result<Int, URLError>.success(1).publisher._immediateOutcome()   // .success(1)
        /// ```
        @inlinable
        @inline(__always)
        public func _immediateOutcome() -> Result<Success?, Failure>? { result.map { $0 } }
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
