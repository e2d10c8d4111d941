extension Publisher {
    /// Passes on every value; if upstream finishes without sending any, sends `output` first.
    ///
    /// A failure is passed on as it is.
    ///
    /// ```swift
    /// let results = search(query).replaceEmpty(with: [])
    /// ```
    @inlinable
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that sends a value of its own when its upstream finishes empty.
    ///
    /// ```swift
    /// let results = Publishers.ReplaceEmpty(upstream: search(query), output: [])
    /// ```
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are passed on.
        public let upstream: Upstream

        /// The value sent when the upstream finishes without one.
        public let output: Upstream.Output

        /// Makes a publisher that sends `output` if `upstream` finishes empty.
        ///
        /// ```swift
        /// let results = Publishers.ReplaceEmpty(upstream: search(query), output: [])
        /// ```
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`; the replacement value waits for demand.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReplaceEmptySubscription(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
