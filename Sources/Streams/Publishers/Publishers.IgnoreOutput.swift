extension Publisher {
    /// Drops every value and passes on only the completion.
    ///
    /// ```swift
    /// let done = upload.ignoreOutput()   // finishes, or fails, when the upload does
    /// ```
    @inlinable
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}

extension Publishers {
    /// A publisher that ignores its upstream's values and passes on its completion.
    ///
    /// ```swift
    /// let done = Publishers.IgnoreOutput(upstream: upload)
    /// ```
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// No values are ever sent.
        public typealias Output = Never
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are dropped.
        public let upstream: Upstream

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let done = Publishers.IgnoreOutput(upstream: upload)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`, which sees only the completion.
        ///
        /// As in Combine, the downstream receives the upstream's own subscription, which is then
        /// asked for everything.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.receive(subscriber: IgnoreOutputSubscriber<Upstream.Output, S>(downstream: subscriber))
        }
    }
}

/// IgnoreOutput's subscriber: stateless and pass-through.
@usableFromInline
struct IgnoreOutputSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
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
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "IgnoreOutput" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}
