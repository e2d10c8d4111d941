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
}
