/// What a ``Subscribers/Sink`` keeps under its lock.
///
/// It is not nested in the generic sink, and holds the handlers as an `AnyObject`, so that its
/// type does not depend on the sink's generic parameters: the sink's deinitializer, which runs
/// unspecialised, then destroys the lock's storage without looking up its type metadata.
///
/// The phase and the upstream subscription are two fields rather than one enum with the
/// subscription as a payload. An `any Subscription` is an opaque existential, and an enum that
/// carries one can only be inspected by copying it (through the subscription's value witnesses);
/// a trivial phase is read in place, and the subscription is only ever moved, never copied.
@usableFromInline
struct SinkState {
    /// Where the sink is in its life.
    @usableFromInline
    enum Phase {
        /// No subscription has arrived yet.
        case awaitingSubscription
        /// `upstream` is the subscription.
        case subscribed
        /// Completed or cancelled: everything from now on is ignored.
        case terminated
    }

    @usableFromInline
    var phase = Phase.awaitingSubscription
    /// The upstream subscription while `subscribed`; a placeholder that ignores calls otherwise.
    @usableFromInline
    var upstream: any Subscription = NoUpstream()
    /// The sink's `Handlers`: set at init and cleared by whoever releases them.
    @usableFromInline
    var handlers: AnyObject?

    @inlinable
    init(handlers: AnyObject) {
        self.handlers = handlers
    }

    /// Ends the sink if `isEnding(phase)`, moving the upstream subscription into `upstream`.
    ///
    /// ```swift
    /// var upstream: any Subscription = NoUpstream()
    /// let ended = state.withLock { $0.terminate(into: &upstream) { $0 == .subscribed } }
    /// ```
    @inlinable
    mutating func terminate(into upstream: inout any Subscription, if isEnding: (Phase) -> Bool) -> Bool {
        guard isEnding(phase) else { return false }
        phase = .terminated
        swap(&upstream, &self.upstream)
        return true
    }
}

/// The stand-in for an upstream subscription a sink does not have: it ignores every call.
///
/// A trivial value, so that putting one in an existential and destroying it cost nothing but
/// the existential's own bookkeeping.
@usableFromInline
struct NoUpstream: Subscription {
    @inlinable
    init() {}

    @inlinable
    func request(_ demand: Subscribers.Demand) {}

    @inlinable
    func cancel() {}

    @inlinable
    var combineIdentifier: CombineIdentifier { CombineIdentifier() }
}
