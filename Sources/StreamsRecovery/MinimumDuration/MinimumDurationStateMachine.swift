import Streams

/// The phases of a `minimumDuration` subscription and what each event does to them. Pure: no
/// locks and no calls out; the subscription performs the actions it returns.
struct MinimumDurationStateMachine<Failure: Error, Instant: Comparable> {
    enum Phase {
        /// Waiting for the upstream's subscription.
        case awaitingSubscription
        /// The upstream runs; values pass.
        case running(upstream: any Subscription)
        /// The upstream ended before the deadline; its completion waits for it.
        case holding(Subscribers.Completion<Failure>)
        /// Completed or cancelled.
        case terminal
    }

    /// What to do with a completion from upstream.
    enum CompletionAction {
        /// Deliver it now: the deadline has passed.
        case deliver
        /// Deliver it when the deadline comes.
        case holdUntilDeadline
        /// Nothing: the stream has already ended.
        case ignore
    }

    let deadline: Instant
    private(set) var phase = Phase.awaitingSubscription

    init(deadline: Instant) {
        self.deadline = deadline
    }

    /// The upstream subscribed: `true` to accept it, `false` to cancel it (a second one, or
    /// one after cancellation).
    mutating func subscribed(_ upstream: any Subscription) -> Bool {
        guard case .awaitingSubscription = phase else { return false }
        phase = .running(upstream: upstream)
        return true
    }

    /// Whether a value may pass.
    var passesValues: Bool {
        if case .running = phase { true } else { false }
    }

    /// The upstream to ask for more, while it runs.
    var upstream: (any Subscription)? {
        if case .running(let upstream) = phase { upstream } else { nil }
    }

    /// The upstream completed at `now`.
    mutating func completed(_ completion: Subscribers.Completion<Failure>, at now: Instant) -> CompletionAction {
        guard case .running = phase else { return .ignore }
        if now >= deadline {
            phase = .terminal
            return .deliver
        }
        phase = .holding(completion)
        return .holdUntilDeadline
    }

    /// The deadline came: the held completion to deliver, if it is still wanted.
    mutating func deadlineReached() -> Subscribers.Completion<Failure>? {
        guard case .holding(let completion) = phase else { return nil }
        phase = .terminal
        return completion
    }

    /// The downstream cancelled: the upstream to cancel, if it still runs.
    mutating func cancelled() -> (any Subscription)? {
        defer { phase = .terminal }
        return upstream
    }
}
