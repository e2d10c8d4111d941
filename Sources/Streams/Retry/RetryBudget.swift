/// A retry budget that many pipelines share: a token bucket that every retry draws from and every
/// success refills, so that when a dependency goes down, a fleet of callers soon stops retrying
/// instead of multiplying the outage with retry traffic.
///
/// Each retry takes `retryCost` tokens and is made only if they are there; each attempt that
/// succeeds (delivers a value or finishes) gives back `successRefill`, up to `capacity`. With the
/// defaults (500, 5, 1), a healthy system keeps the bucket full; a failing one can spend it on 100
/// retries, after which pipelines give up with their error at once, and each success buys back a
/// fifth of a retry. The idea is the retry quota of the AWS SDKs and gRPC's retry throttling.
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
    /// The tokens one successful attempt gives back.
    public let successRefill: Int

    /// The tokens in the bucket.
    private let state: LockedState<Int>

    /// Makes a full budget. `retryCost` must be positive and at most `capacity`;
    /// `successRefill` must not be negative.
    ///
    /// ```swift
    /// let budget = RetryBudget(capacity: 50, retryCost: 5, successRefill: 1)   // 10 retries in hand
    /// ```
    public init(capacity: Int = 500, retryCost: Int = 5, successRefill: Int = 1) {
        precondition(
            retryCost > 0 && retryCost <= capacity,
            "RetryBudget requires 0 < retryCost <= capacity, got retryCost \(retryCost), capacity \(capacity)")
        precondition(successRefill >= 0, "RetryBudget requires successRefill >= 0, got \(successRefill)")
        self.capacity = capacity
        self.retryCost = retryCost
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
        state.withLock { tokens in
            guard tokens >= retryCost else { return false }
            tokens -= retryCost
            return true
        }
    }

    /// Gives back the cost of a retry that was paid for and then not made (its stream was
    /// cancelled meanwhile), up to `capacity`.
    @usableFromInline
    func refundRetry() {
        state.withLock { $0 = min(capacity, $0 + retryCost) }
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
