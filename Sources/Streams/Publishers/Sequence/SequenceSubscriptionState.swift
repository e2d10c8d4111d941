/// What a `SequenceSubscription` keeps under its lock.
///
/// It is not nested in the generic subscription, so that its type does not depend on the
/// subscription's generic parameters: the subscription's deinitializer, which runs
/// unspecialised, then destroys the lock's storage without looking up its type metadata.
@usableFromInline
struct SequenceSubscriptionState {
    @usableFromInline
    var pending = Subscribers.Demand.none
    @usableFromInline
    var owned = false
    @usableFromInline
    var terminated = false
    /// The sequence, for the description and mirror; nil once exhausted or cancelled.
    @usableFromInline
    var sequence: Any?

    @inlinable
    init(sequence: Any) {
        self.sequence = sequence
    }

    /// What a cancel does once the lock is released. Each case carries `released`, the
    /// sequence (nil once ended), to be let go outside the lock.
    @usableFromInline
    enum CancelAction {
        /// Already ended: nothing.
        case none
        /// The owner is emitting and sees the cancel: it releases the subscription itself.
        case leaveToOwner(released: Any?)
        /// Nobody owns the subscription: the canceller takes it and releases it.
        case release(released: Any?)
    }

    /// The downstream cancelled: the subscription ends, and is released by its owner, or by the
    /// canceller when nobody owns it.
    @inlinable
    mutating func cancel() -> CancelAction {
        guard !terminated else { return .none }
        terminated = true
        defer { sequence = nil }
        guard !owned else { return .leaveToOwner(released: sequence) }
        owned = true
        return .release(released: sequence)
    }
}
