/// A subject that keeps the upstream subscriptions it is given and can be told when one of them
/// has ended, so that it lets that one go at once instead of when the subject goes away:
/// ``PassthroughSubject``, ``CurrentValueSubject`` and what a multicast's connections feed.
///
/// The subscription that `subscribe(_:)` makes for a subject uses it: it completes or is
/// cancelled once, and then nothing it is asked to do has any effect, so keeping it would only
/// hold memory, one subscription per connection of a `share()` that reconnects.
///
/// ```swift
/// if let keeper = subject as? any UpstreamKeepingSubject, let key = keeper.keep(upstream: self) {
///     // ... once this subscription has completed or been cancelled:
///     keeper.forget(upstream: key)
/// }
/// ```
@usableFromInline
package protocol UpstreamKeepingSubject: AnyObject {
    /// Does what `send(subscription:)` does, and returns the key to ``forget(upstream:)`` the
    /// subscription by; nil if it was not kept.
    func keep(upstream subscription: any Subscription) -> Int?

    /// Lets go of the subscription kept under `key`: it has completed or been cancelled.
    func forget(upstream key: Int)
}

extension PassthroughSubject: UpstreamKeepingSubject {
    @inlinable
    package func keep(upstream subscription: any Subscription) -> Int? {
        core.keep(upstream: subscription)
    }

    @inlinable
    package func forget(upstream key: Int) {
        core.forget(upstream: key)
    }
}

extension CurrentValueSubject: UpstreamKeepingSubject {
    @inlinable
    package func keep(upstream subscription: any Subscription) -> Int? {
        core.keep(upstream: subscription)
    }

    @inlinable
    package func forget(upstream key: Int) {
        core.forget(upstream: key)
    }
}
