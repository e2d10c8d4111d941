extension Publisher {
    /// The selective retry, `retry(_:when:backoff:scheduler:)`, deciding on values as well as
    /// errors: `shouldRetry` judges each value (`.value`) and the failure (`.failure`), and a
    /// value it handles ends the attempt as a failure would (the upstream is cancelled, the value
    /// is not delivered) and is retried in the same order (the count, the wait against
    /// `maxElapsed`, a hint the value carries as ``RetryAfterProviding`` against
    /// `retryAfterLimit`, the budget).
    ///
    /// When the retry gives up on a handled value, that value is delivered and the stream
    /// finishes: the caller gets the last outcome, as Polly's `ShouldHandle` does, never an
    /// invented error. A handled failure given up on is delivered unchanged. Values the closure
    /// does not handle pass through (and count as the attempt's success for the budget and
    /// `transient`). `onRetry` and `onGiveUp` see the outcome as an ``AttemptOutcome``.
    ///
    /// ```swift
    /// let reply = Deferred { api.graphQL(query) }
    ///     .retry(2, whenOutcome: { outcome in
    ///         switch outcome {
    ///         case .value(let reply): reply.errors.contains { $0.isTransient }
    ///         case .failure(let error): error.resolveCategory() == .retryable
    ///         }
    ///     }, backoff: .exponential(), scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func retry<S: Scheduler, G: RandomNumberGenerator & Sendable>(
        _ maxRetries: Int,
        whenOutcome shouldRetry: @escaping (AttemptOutcome<Output, Failure>) -> Bool,
        backoff: Backoff,
        retryAfterLimit: Duration = RetryAfter.defaultLimit,
        maxElapsed: Duration? = nil,
        budget: RetryBudget? = nil,
        transient: Bool = false,
        scheduler: S,
        random: G = SystemRandomNumberGenerator(),
        onRetry: ((RetryAttempt<AttemptOutcome<Output, Failure>>) -> Void)? = nil,
        onGiveUp: ((RetryReport<AttemptOutcome<Output, Failure>>) -> Void)? = nil
    ) -> Publishers.OutcomeRetry<Self, S> {
        Publishers.OutcomeRetry(
            upstream: self, maxRetries: maxRetries, shouldRetry: shouldRetry, backoff: backoff,
            retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget, transient: transient,
            scheduler: scheduler, random: random, observer: nil, onRetry: onRetry, onGiveUp: onGiveUp)
    }
}

extension Publishers {
    /// A publisher that retries the failures and the values its closure handles, as
    /// `retry(_:whenOutcome:backoff:scheduler:)` describes.
    ///
    /// ```swift
    /// let retried = request.retry(3, whenOutcome: { $0.value?.isError ?? true }, backoff: .exponential(), scheduler: DispatchQueue.main)
    /// ```
    public struct OutcomeRetry<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's values; a handled one is delivered only when the retry gives up on it.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered unchanged on giving up.
        public typealias Failure = Upstream.Failure
        /// What the retry judges.
        public typealias Outcome = AttemptOutcome<Upstream.Output, Upstream.Failure>

        /// The retry of the outcomes, over the upstream whose handled values fail the attempt.
        @usableFromInline
        let retried: SelectiveRetry<Publishers.OutcomeFailing<Upstream>, Context>

        /// Makes the retry; see `retry(_:whenOutcome:backoff:scheduler:)`. `observer` is
        /// StreamsResilience's events.
        @inlinable
        package init<G: RandomNumberGenerator & Sendable>(
            upstream: Upstream,
            maxRetries: Int,
            shouldRetry: @escaping (Outcome) -> Bool,
            backoff: Backoff,
            retryAfterLimit: Duration,
            maxElapsed: Duration?,
            budget: RetryBudget?,
            transient: Bool,
            scheduler: Context,
            random: G,
            observer: RetryEventObserver?,
            onRetry: ((RetryAttempt<Outcome>) -> Void)?,
            onGiveUp: ((RetryReport<Outcome>) -> Void)?
        ) {
            retried = SelectiveRetry(
                upstream: OutcomeFailing(upstream: upstream, handles: { shouldRetry(.value($0)) }), maxRetries: maxRetries,
                shouldRetry: { outcome in
                    // A value reaches the retry only once the closure has handled it.
                    guard case .failure = outcome else { return true }
                    return shouldRetry(outcome)
                },
                backoff: backoff, retryAfterLimit: retryAfterLimit, maxElapsed: maxElapsed, budget: budget,
                transient: transient, scheduler: scheduler, random: random, observer: observer, onRetry: onRetry,
                onGiveUp: onGiveUp)
        }

        /// Attaches `subscriber`: the retry, then the last outcome turned back into a value or
        /// the upstream's failure.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            retried.catch { Result<Output, Failure>.Publisher($0.result) }.receive(subscriber: subscriber)
        }
    }

    /// The upstream of `retry(_:whenOutcome:backoff:scheduler:)`: its failure wrapped as an
    /// ``AttemptOutcome``, and a value that `handles` accepts turned into a failure (the upstream
    /// is cancelled), so that the selective retry judges both alike.
    @usableFromInline
    struct OutcomeFailing<Upstream: Publisher>: Publisher {
        @usableFromInline
        typealias Output = Upstream.Output
        @usableFromInline
        typealias Failure = AttemptOutcome<Upstream.Output, Upstream.Failure>

        @usableFromInline
        let upstream: Upstream
        @usableFromInline
        let handles: (Upstream.Output) -> Bool

        @inlinable
        init(upstream: Upstream, handles: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.handles = handles
        }

        @inlinable
        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handles = handles
            upstream.receive(
                subscriber: StageSubscription<Upstream.Output, Upstream.Failure, S>(
                    kind: .tryMap, downstream: subscriber, mapFailure: { .failure($0) },
                    step: { input in handles(input) ? .fail(.value(input)) : .emit(input) }))
        }
    }
}
