extension Optional {
    /// A publisher that sends the wrapped value and finishes, or just finishes when `nil`.
    ///
    /// ```swift
    /// let maybe: Int? = 7
    /// let cancellable = maybe.publisher.sink { print($0) }   // 7
    /// ```
    @inlinable
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher of at most one value: the value is sent on the first request, followed by
    /// `.finished`; `nil` finishes at once.
    ///
    /// ```swift
    /// let none = Optional<Int>.Publisher(nil)
    /// ```
    public struct Publisher: Streams.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// An optional cannot fail.
        public typealias Failure = Never

        /// The value every subscriber receives, if any.
        public let output: Wrapped?

        /// Makes a publisher of `output`.
        ///
        /// ```swift
        /// let seven = Optional<Int>.Publisher(7)
        /// ```
        @inlinable
        public init(_ output: Wrapped?) {
            self.output = output
        }

        /// Sends the value, if any, and `.finished` to `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(subscription: JustSubscription(name: "Optional", value: output, downstream: subscriber))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }

        /// `.success(output)`: the value and `.finished`, or `.finished` alone for nil.
        ///
        /// ```swift
        /// Optional(1).publisher._immediateOutcome()   // .success(1)
        /// ```
        @inlinable
        @inline(__always)
        public func _immediateOutcome() -> Result<Wrapped?, Never>? { .success(output) }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
