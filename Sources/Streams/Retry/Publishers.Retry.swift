extension Publisher {
    /// Subscribes to this publisher again when it fails, up to `retries` more times.
    ///
    /// Every failure is retried at once. The downstream keeps its one subscription and its
    /// outstanding demand; values already delivered stay delivered. For selective retries that
    /// wait between attempts, use `retry(_:when:backoff:scheduler:)`.
    ///
    /// A negative count is a precondition failure (Combine retries forever, by accident of its
    /// countdown); to retry forever, use `Publishers.Retry(upstream:retries: nil)`.
    ///
    /// ```swift
    /// let data = Deferred { fetch() }.retry(3)   // at most 4 attempts
    /// ```
    @inlinable
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that subscribes to its upstream again each time it fails, a number of times
    /// or forever.
    ///
    /// Resubscription is a loop, not a recursion: an upstream that fails synchronously any
    /// number of times does not grow the stack. As in Combine, one object is both the
    /// downstream's subscription (described as `"Retry"`) and the subscriber of every attempt.
    ///
    /// ```swift
    /// let data = Publishers.Retry(upstream: Deferred { fetch() }, retries: 3)
    /// ```
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to again.
        public let upstream: Upstream

        /// How many times to resubscribe; `nil` for no limit.
        public let retries: Int?

        /// Makes a publisher that retries `upstream` up to `retries` times (`nil`: forever).
        /// A negative count is a precondition failure.
        ///
        /// ```swift
        /// let data = Publishers.Retry(upstream: Deferred { fetch() }, retries: nil)
        /// ```
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            if let retries {
                precondition(
                    retries >= 0,
                    "retry(_:) requires a retry count of zero or more, got \(retries); use Publishers.Retry(upstream:retries: nil) to retry forever"
                )
            }
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber`; it sees one subscription however many attempts are made.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ResubscribingSubscription(upstream: upstream, policy: ImmediateRetryPolicy(retries: retries), downstream: subscriber)
                .start()
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}
