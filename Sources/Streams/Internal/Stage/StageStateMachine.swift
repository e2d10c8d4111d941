/// The state of a ``StageSubscription``: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases (a `cancel()` before the upstream's subscription follows Combine's rule, written in
/// "Zero demand and subscriptions before the upstream's" in Docs/MigratingFromCombine.md):
/// - `awaitingSubscription(core)`: the upstream has not sent its subscription. A `cancel()`
///   here is a no-op (the late subscription is still accepted), except in the filter family,
///   where it ends the stage.
/// - `subscribed(core)`: values go through `core`'s step; requests go to `upstream`.
/// - `terminated`: completed or cancelled; the core (downstream and closures) has been let go and
///   everything is ignored.
///
/// `Core` is what the stage holds while it is live, handed out of the lock as one reference.
/// The upstream subscription is kept beside the phase rather than in `subscribed`: an
/// existential in a case's payload makes every read of the phase on the value path copy it
/// through its value witnesses (Docs/Performance.md has the measured cost); it is set exactly
/// while the phase is `subscribed`.
@usableFromInline
package struct StageStateMachine<Core: AnyObject> {
    @usableFromInline
    package enum Phase {
        case awaitingSubscription(Core)
        case subscribed(Core)
        case terminated
    }

    @usableFromInline
    package var phase: Phase
    /// The upstream's subscription, while `subscribed`.
    @usableFromInline
    package var upstream: (any Subscription)?
    @usableFromInline
    package let kind: StageKind

    @inlinable
    package init(kind: StageKind, core: Core) {
        self.kind = kind
        phase = .awaitingSubscription(core)
    }

    /// The upstream's subscription: the core to hand the stage downstream with, or nil when the
    /// subscription must be cancelled (a second one, or one after the end).
    @inlinable
    package mutating func receiveSubscription(_ subscription: any Subscription) -> Core? {
        guard case .awaitingSubscription(let core) = phase else { return nil }
        phase = .subscribed(core)
        upstream = subscription
        return core
    }

    /// The core a value goes through, while subscribed: the value path reads only this.
    @inlinable
    package var subscribedCore: Core? {
        if case .subscribed(let core) = phase { core } else { nil }
    }

    /// The core while the upstream subscription is awaited.
    @inlinable
    package var waitingCore: Core? {
        if case .awaitingSubscription(let core) = phase { core } else { nil }
    }

    @usableFromInline
    package enum CompletionAction {
        /// Send the completion through this core; the stage has ended.
        case forward(Core)
        case ignore
        /// A completion before the subscription, where Combine traps (the filter family).
        case trap
    }

    @inlinable
    package mutating func receiveCompletion() -> CompletionAction {
        switch phase {
        case .awaitingSubscription:
            return kind.isFilterFamily ? .trap : .ignore
        case .subscribed(let core):
            phase = .terminated
            upstream = nil
            return .forward(core)
        case .terminated:
            return .ignore
        }
    }

    /// What the subscription does when its stage ends on its own.
    @usableFromInline
    package enum EndAction {
        /// Cancel `upstream`, then send the completion through `core`.
        case complete(upstream: any Subscription, core: Core)
        /// Already ended: nothing.
        case none
    }

    /// The stage ends on its own (its step finished or failed), unless it has already ended.
    @inlinable
    package mutating func end() -> EndAction {
        guard case .subscribed(let core) = phase, let upstream else { return .none }
        phase = .terminated
        self.upstream = nil
        return .complete(upstream: upstream, core: core)
    }

    @usableFromInline
    package enum RequestAction {
        case forward(any Subscription)
        case ignore
        /// A request before the subscription was sent, where Combine traps (the filter family).
        case trap
    }

    @inlinable
    package func request() -> RequestAction {
        switch phase {
        case .awaitingSubscription:
            return kind.isFilterFamily ? .trap : .ignore
        case .subscribed:
            return upstream.map { .forward($0) } ?? .ignore
        case .terminated:
            return .ignore
        }
    }

    /// What the subscription does with a downstream cancel; the core let go of is released
    /// outside the lock.
    @usableFromInline
    package enum CancelAction {
        /// Cancel the upstream, then release the core.
        case cancelUpstream(any Subscription, released: Core)
        /// Release the core (ended before the upstream subscription arrived).
        case release(Core)
        /// Nothing: already ended, or an early cancel that Combine ignores.
        case none
    }

    /// A downstream cancel.
    @inlinable
    package mutating func cancel() -> CancelAction {
        switch phase {
        case .awaitingSubscription(let core):
            guard kind.isFilterFamily else { return .none }
            phase = .terminated
            return .release(core)
        case .subscribed(let core):
            phase = .terminated
            defer { self.upstream = nil }
            guard let upstream else { return .release(core) }
            return .cancelUpstream(upstream, released: core)
        case .terminated:
            return .none
        }
    }
}
