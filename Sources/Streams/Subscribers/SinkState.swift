/// What a ``Subscribers/Sink`` keeps under its lock.
///
/// It is not nested in the generic sink, and holds the handlers as an `AnyObject`, so that its
/// type does not depend on the sink's generic parameters: the sink's deinitializer, which runs
/// unspecialised, then destroys the lock's storage without looking up its type metadata.
@usableFromInline
struct SinkState {
    @usableFromInline
    var status = SubscriptionStatus.awaitingSubscription
    /// The sink's `Handlers`: set at init and cleared by whoever releases them.
    @usableFromInline
    var handlers: AnyObject?

    @inlinable
    init(handlers: AnyObject) {
        self.handlers = handlers
    }
}
