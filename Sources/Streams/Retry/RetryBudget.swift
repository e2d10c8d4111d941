/// A retry budget that many pipelines share: a token bucket that every retry draws from and every
/// success refills, so that when a dependency goes down, a fleet of callers soon stops retrying
/// instead of multiplying the outage with retry traffic.
///
/// Each retry takes `retryCost` tokens and is made only if they are there; a retry after a
/// timeout takes `timeoutCost` (twice `retryCost` unless you say otherwise), because a timed-out
/// attempt has already held a connection for the whole timeout. Each attempt that succeeds
/// (delivers a value or finishes) gives back `successRefill`, up to `capacity`. With the defaults
/// (500, 5, 10, 1), a healthy system keeps the bucket full; a failing one can spend it on 100
/// retries (50 after timeouts), after which pipelines give up with their error at once, and each
/// success buys back a fifth of a retry. The idea and the numbers are the retry quota of the AWS
/// SDKs; gRPC's retry throttling works alike. Hedging (`hedge`) draws `retryCost` per extra
/// attempt from the same bucket.
///
/// Timeouts are `AttemptTimeoutError` and `DeadlineExceededError` (alone or inside a
/// `ResilienceError`) and `URLError(.timedOut)`; see ``isTimeout(_:)``.
///
/// ```swift
/// let budget = RetryBudget()   // share one per backend
/// let user = api.user(id)
///     .retry(3, backoff: .exponential(initial: .milliseconds(200)), budget: budget, scheduler: DispatchQueue.main)
/// ```
public final class RetryBudget: Sendable {
    /// The most tokens the bucket holds; it starts full.
    public let capacity: Int
    /// The tokens one retry takes.
    public let retryCost: Int
    /// The tokens one retry after a timeout takes.
    public let timeoutCost: Int
    /// The tokens one successful attempt gives back.
    public let successRefill: Int

    /// The tokens in the bucket.
    private let state: LockedState<Int>

    /// Makes a full budget. `retryCost` must be positive and at most `capacity`; `timeoutCost`
    /// (nil: twice `retryCost`) must be positive; `successRefill` must not be negative.
    ///
    /// ```swift
    /// let budget = RetryBudget(capacity: 50, retryCost: 5, successRefill: 1)   // 10 retries in hand
    /// let aws = RetryBudget(capacity: 500, retryCost: 5, timeoutCost: 10, successRefill: 1)
    /// ```
    public init(capacity: Int = 500, retryCost: Int = 5, timeoutCost: Int? = nil, successRefill: Int = 1) {
        precondition(
            retryCost > 0 && retryCost <= capacity,
            "RetryBudget requires 0 < retryCost <= capacity, got retryCost \(retryCost), capacity \(capacity)")
        let timeoutCost = timeoutCost ?? (retryCost > Int.max / 2 ? Int.max : retryCost * 2)
        precondition(timeoutCost > 0, "RetryBudget requires timeoutCost > 0, got \(timeoutCost)")
        precondition(successRefill >= 0, "RetryBudget requires successRefill >= 0, got \(successRefill)")
        self.capacity = capacity
        self.retryCost = retryCost
        self.timeoutCost = timeoutCost
        self.successRefill = successRefill
        state = LockedState(capacity)
    }

    /// The tokens in the bucket now.
    ///
    /// ```swift
    /// if budget.available < budget.retryCost { print("retries are paused") }
    /// ```
    public var available: Int {
        state.withLock { $0 }
    }

    /// Takes the cost of one retry; false, taking nothing, when the bucket cannot pay it.
    ///
    /// ```swift
    /// if budget.withdrawRetry() { scheduleRetry() } else { giveUp() }
    /// ```
    public func withdrawRetry() -> Bool {
        withdraw(retryCost)
    }

    /// Takes the cost of one retry after `error`: `timeoutCost` when it is a timeout
    /// (``isTimeout(_:)``), `retryCost` otherwise; false, taking nothing, when the bucket cannot
    /// pay it.
    ///
    /// ```swift
    /// if budget.withdrawRetry(after: AttemptTimeoutError(timeout: .seconds(10))) { scheduleRetry() }   // 10 tokens
    /// ```
    public func withdrawRetry(after error: any Error) -> Bool {
        withdraw(cost(after: error))
    }

    /// The tokens a retry after `error` takes: `timeoutCost` for a timeout, `retryCost` otherwise.
    ///
    /// ```swift
    /// RetryBudget().cost(after: URLError(.timedOut))   // 10
    /// ```
    public func cost(after error: any Error) -> Int {
        Self.isTimeout(error) ? timeoutCost : retryCost
    }

    /// Whether `error` counts as a timeout: an `AttemptTimeoutError` or a
    /// `DeadlineExceededError`, alone or inside a `ResilienceError`, or `URLError(.timedOut)`.
    ///
    /// ```swift
    /// RetryBudget.isTimeout(ResilienceError<URLError>.attemptTimedOut(AttemptTimeoutError(timeout: .seconds(1))))   // true
    /// ```
    public static func isTimeout(_ error: any Error) -> Bool {
        switch ResilienceErrorKind.of(error) {
        case .timeout, .deadline: true
        case .circuitOpen, .other: false
        }
    }

    /// Takes `cost` tokens; false, taking nothing, when the bucket cannot pay them.
    @usableFromInline
    package func withdraw(_ cost: Int) -> Bool {
        state.withLock { tokens in
            guard tokens >= cost else { return false }
            tokens -= cost
            return true
        }
    }

    /// Gives back the cost of a retry that was paid for and then not made (its stream was
    /// cancelled meanwhile), up to `capacity`.
    @usableFromInline
    package func refundRetry() {
        refund(retryCost)
    }

    /// Gives back `cost` tokens taken for a retry or hedge that was then not made, up to
    /// `capacity`.
    @usableFromInline
    package func refund(_ cost: Int) {
        state.withLock { $0 = min(capacity, $0 + cost) }
    }

    /// Gives back `successRefill` tokens for a successful attempt, up to `capacity`.
    ///
    /// ```swift
    /// budget.recordSuccess()
    /// ```
    public func recordSuccess() {
        state.withLock { $0 = min(capacity, $0 + successRefill) }
    }
}
