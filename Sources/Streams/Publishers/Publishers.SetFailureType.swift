extension Publisher where Failure == Never {
    /// Gives a publisher that cannot fail the failure type another publisher expects.
    ///
    /// ```swift
    /// let names: AnyPublisher<String, URLError> = Just("guest")
    ///     .setFailureType(to: URLError.self)
    ///     .eraseToAnyPublisher()
    /// ```
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

extension Publishers {
    /// A publisher that cannot fail, typed as one that can fail with `Failure`.
    ///
    /// ```swift
    /// let typed = Publishers.SetFailureType<Just<Int>, URLError>(upstream: Just(1))
    /// ```
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's values.
        public typealias Output = Upstream.Output

        /// The publisher that cannot fail.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let typed = Publishers.SetFailureType<Just<Int>, URLError>(upstream: Just(1))
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; only `.finished` can reach it.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber))
        }

        /// The upstream's outcome, which cannot be a failure.
        ///
        /// ```swift
        /// Just(1).setFailureType(to: URLError.self)._immediateOutcome()   // .success(1)
        /// ```
        @inlinable
        @inline(__always)
        public func _immediateOutcome() -> Result<Output?, Failure>? {
            switch upstream._immediateOutcome() {
            case .none: nil
            case .success(let value): .success(value)
            }
        }

        /// Changes the failure type again, without another stage.
        ///
        /// ```swift
        /// let retyped = typed.setFailureType(to: DecodingError.self)
        /// ```
        @inlinable
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType {
    /// SetFailureType's subscriber: stateless, so the upstream subscription goes straight down.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Never>) {
            downstream.receive(completion: .finished)
        }

        @usableFromInline
        var description: String { "SetFailureType" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
