extension Publisher {
    /// Transforms the failure with `transform`; values pass through unchanged.
    ///
    /// ```swift
    /// let friendly = request.mapError { AppError.network($0) }
    /// ```
    @inlinable
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform)
    }
}

extension Publishers {
    /// A publisher that transforms its upstream's failure.
    ///
    /// ```swift
    /// let wrapped = Publishers.MapError(upstream: request) { AppError.network($0) }
    /// ```
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output

        /// The publisher whose failure is transformed.
        public let upstream: Upstream

        /// The transformation applied to the failure.
        public let transform: (Upstream.Failure) -> Failure

        /// Makes a publisher that transforms `upstream`'s failure with `transform`.
        ///
        /// ```swift
        /// let wrapped = Publishers.MapError(upstream: request, { AppError.network($0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, _ transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Makes a publisher that transforms `upstream`'s failure with `map`.
        ///
        /// ```swift
        /// let wrapped = Publishers.MapError(upstream: request, transform: { AppError.network($0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform)
        }

        /// Attaches `subscriber` through the failure transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    /// MapError's subscriber: stateless, so the upstream subscription goes straight downstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        let downstream: Downstream
        @usableFromInline
        let transform: (Upstream.Failure) -> Failure
        @usableFromInline
        let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.downstream = downstream
            self.transform = transform
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
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion.mapError(transform))
        }

        @usableFromInline
        var description: String { "MapError" }

        @usableFromInline
        var customMirror: Mirror { Mirror(self, children: []) }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}
