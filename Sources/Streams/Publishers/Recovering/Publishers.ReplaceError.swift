extension Publisher {
    /// Replaces a failure with one last value, `output`, followed by `.finished`.
    ///
    /// The last value waits for demand like any other.
    ///
    /// ```swift
    /// let avatar = imageRequest.replaceError(with: placeholderImage)
    /// ```
    @inlinable
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}

extension Publishers {
    /// A publisher that turns its upstream's failure into a last value and a normal finish.
    ///
    /// ```swift
    /// let safe = Publishers.ReplaceError(upstream: request, output: [])
    /// ```
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The result cannot fail.
        public typealias Failure = Never

        /// The publisher whose failure is replaced.
        public let upstream: Upstream

        /// The value sent in place of a failure.
        public let output: Upstream.Output

        /// Makes a publisher that replaces `upstream`'s failure with `output`.
        ///
        /// ```swift
        /// let safe = Publishers.ReplaceError(upstream: request, output: [])
        /// ```
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            let output = self.output
            upstream.receive(
                subscriber:
                    RecoveringSubscription<Output, Upstream.Failure, S>(
                        name: "ReplaceError", downstream: subscriber, transform: { $0 }, recover: { _ in output }))
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}
