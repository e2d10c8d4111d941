/// What the state machine of `flatMap` or `switchToLatest` let go of when it ended, to be
/// cancelled, woken or released outside its lock.
///
/// Not generic, so that handing it out on the per-value path costs no value-witness calls.
@usableFromInline
package struct ChildrenEnding {
    /// The downstream's owner, to send the completion to; nil when the thread delivering to the
    /// downstream sends it.
    @usableFromInline
    package let resources: AnyObject?
    /// Subscriptions to cancel.
    @usableFromInline
    package let cancel: [any Subscription]
    /// Threads that waited to deliver, to be woken (without the turn).
    @usableFromInline
    package let dismissed: ArraySlice<TurnWaiter>
    /// Whatever else was held (buffered values, subscriptions), released with this value.
    @usableFromInline
    package let released: Any

    @inlinable
    package init(resources: AnyObject?, cancel: [any Subscription], dismissed: ArraySlice<TurnWaiter> = [], released: Any) {
        self.resources = resources
        self.cancel = cancel
        self.dismissed = dismissed
        self.released = released
    }

    /// Cancels, then wakes the dismissed threads.
    @inlinable
    package func cancelAndWake() {
        for subscription in cancel { subscription.cancel() }
        for waiter in dismissed { waiter.wake() }
    }
}
