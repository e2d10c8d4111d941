/// The state of one subscriber's subscription to a ``Future``: a value with no lock and no
/// callouts. Each event method updates it and returns what the subscription must do once its
/// lock is released.
///
/// Phases, and the events that move between them:
/// - `subscribing`: the downstream is being handed the subscription; a result and a request may
///   arrive meanwhile and are kept. Handed over → `delivering` (a failure, or a success with
///   demand), `awaitingDemand` (a success without demand) or `awaitingResult` (no result yet).
/// - `awaitingResult`: a request is noted; a failure, or a success with demand → `terminated`
///   with the result to deliver; a success without demand → `awaitingDemand`.
/// - `awaitingDemand`: a request → `terminated` with the value to deliver.
/// - `terminated`: delivered or cancelled; the downstream has been let go.
///
/// `cancel` leads from every phase to `terminated`. As in Combine, `hasAnyDemand` (shown by the
/// subscription's mirror) is kept by a cancellation, cleared by a delivery, and set by any later
/// request; and the future (the mirror's `parent` and `subject`) is let go at once by a cancel,
/// after the delivery when the result went out as it arrived (`delivered()`), and never when a
/// request sent it (also one made before the hand-over to a future that had its result).
///
/// The machine is not generic: it keeps the downstream's box and the future as `AnyObject`s,
/// which the subscription casts back, and of the result only whether it is a success (the
/// future keeps the result itself, and the subscription reads it there when it delivers). A
/// generic machine made every request, cancel and deinitialisation of a subscription reached
/// through `any Subscription` run unspecialised code that looked its types' metadata up, about
/// 2,000 instructions of the 6,700 a `flatMap { Future }` child cost.
@usableFromInline
struct FutureConduitStateMachine {
    /// What the future's result was; the value itself stays in the future.
    @usableFromInline
    enum Outcome {
        case success, failure
    }

    @usableFromInline
    enum Phase {
        /// The downstream is receiving the subscription; `result` and `demanded` record what
        /// arrived meanwhile.
        case subscribing(downstream: AnyObject, parent: AnyObject, result: Outcome?, demanded: Bool)
        /// Subscribed; the future has not been fulfilled yet.
        case awaitingResult(downstream: AnyObject, parent: AnyObject, demanded: Bool)
        /// Subscribed; the future succeeded, and its value waits for a request.
        case awaitingDemand(downstream: AnyObject, parent: AnyObject)
        /// Delivered or cancelled; `parent` is kept while a result that arrived is delivered,
        /// and for good once a request delivered it.
        case terminated(demanded: Bool, parent: AnyObject?)
    }

    /// The future's result is to be delivered outside the lock to `downstream`, with the future
    /// let go of only once it is delivered; `thenLetsParentGo` says whether `delivered()` must
    /// follow.
    @usableFromInline
    struct Delivery {
        @usableFromInline
        let downstream: AnyObject
        @usableFromInline
        let parent: AnyObject
        @usableFromInline
        let thenLetsParentGo: Bool

        @inlinable
        init(downstream: AnyObject, parent: AnyObject, thenLetsParentGo: Bool) {
            self.downstream = downstream
            self.parent = parent
            self.thenLetsParentGo = thenLetsParentGo
        }
    }

    @usableFromInline
    var phase: Phase

    @inlinable
    init(downstream: AnyObject, parent: AnyObject) {
        phase = .subscribing(downstream: downstream, parent: parent, result: nil, demanded: false)
    }

    /// The downstream's box to hand the subscription to, or `nil` once terminated.
    @inlinable
    var subscriber: AnyObject? {
        switch phase {
        case .subscribing(let downstream, _, _, _): downstream
        case .awaitingResult, .awaitingDemand:
            preconditionFailure("FutureConduitStateMachine internal inconsistency: subscribed twice")
        case .terminated: nil
        }
    }

    /// The downstream has received the subscription.
    @inlinable
    mutating func handedOver() -> Delivery? {
        switch phase {
        case .subscribing(let downstream, let parent, let result, let demanded):
            phase = .awaitingResult(downstream: downstream, parent: parent, demanded: demanded)
            guard let result else { return nil }
            // A request made while the result was known sends it, as in Combine.
            return resolve(result, downstream: downstream, parent: parent, demanded: demanded, byRequest: demanded)
        case .awaitingResult, .awaitingDemand:
            preconditionFailure("FutureConduitStateMachine internal inconsistency: handed over twice")
        case .terminated:
            return nil
        }
    }

    /// The future was fulfilled with a result of this `outcome`.
    @inlinable
    mutating func fulfill(_ outcome: Outcome) -> Delivery? {
        switch phase {
        case .subscribing(let downstream, let parent, nil, let demanded):
            phase = .subscribing(downstream: downstream, parent: parent, result: outcome, demanded: demanded)
            return nil
        case .awaitingResult(let downstream, let parent, let demanded):
            return resolve(outcome, downstream: downstream, parent: parent, demanded: demanded, byRequest: false)
        case .subscribing, .awaitingDemand:
            preconditionFailure("FutureConduitStateMachine internal inconsistency: fulfilled twice")
        case .terminated:
            return nil
        }
    }

    /// The downstream asked for a value (the demand is not zero: the subscription checks that).
    @inlinable
    mutating func request() -> Delivery? {
        switch phase {
        case .subscribing(let downstream, let parent, let result, _):
            phase = .subscribing(downstream: downstream, parent: parent, result: result, demanded: true)
            return nil
        case .awaitingResult(let downstream, let parent, _):
            phase = .awaitingResult(downstream: downstream, parent: parent, demanded: true)
            return nil
        case .awaitingDemand(let downstream, let parent):
            // As in Combine, a subscription whose request sent the value keeps the future.
            phase = .terminated(demanded: false, parent: parent)
            return Delivery(downstream: downstream, parent: parent, thenLetsParentGo: false)
        case .terminated(_, let parent):
            phase = .terminated(demanded: true, parent: parent)
            return nil
        }
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Already let go of: nothing.
        case none
        /// `parent` forgets this subscription; then both it and `downstream` are let go.
        case release(downstream: AnyObject, parent: AnyObject)
    }

    /// The downstream cancelled: returns the downstream and the future, to be let go outside the
    /// lock (the future forgets this subscription), unless they have already been let go.
    @inlinable
    mutating func cancel() -> CancelAction {
        switch phase {
        case .subscribing(let downstream, let parent, _, let demanded),
            .awaitingResult(let downstream, let parent, let demanded):
            phase = .terminated(demanded: demanded, parent: nil)
            return .release(downstream: downstream, parent: parent)
        case .awaitingDemand(let downstream, let parent):
            phase = .terminated(demanded: false, parent: nil)
            return .release(downstream: downstream, parent: parent)
        case .terminated:
            return .none
        }
    }

    /// Once subscribed with a result of this `outcome`: delivers a failure, or a success with
    /// demand; otherwise keeps the success until a request. `byRequest` tells whether the
    /// delivery counts as sent by a request (the subscription then keeps the future) or by the
    /// result's arrival (the future is let go once it is delivered).
    @inlinable
    mutating func resolve(
        _ outcome: Outcome, downstream: AnyObject, parent: AnyObject, demanded: Bool, byRequest: Bool
    ) -> Delivery? {
        if case .success = outcome, !demanded {
            phase = .awaitingDemand(downstream: downstream, parent: parent)
            return nil
        }
        // The future stays visible while the result goes out.
        phase = .terminated(demanded: false, parent: parent)
        return Delivery(downstream: downstream, parent: parent, thenLetsParentGo: !byRequest)
    }

    /// A delivery that asked for it is over: returns the future, to be let go outside the lock.
    @inlinable
    mutating func delivered() -> AnyObject? {
        switch phase {
        case .terminated(let demanded, let parent):
            phase = .terminated(demanded: demanded, parent: nil)
            return parent
        case .subscribing, .awaitingResult, .awaitingDemand:
            preconditionFailure("FutureConduitStateMachine internal inconsistency: delivered while live")
        }
    }

    /// The future, for the mirror; once terminated, only while it is kept (see `terminated`).
    @inlinable
    var parent: AnyObject? {
        switch phase {
        case .subscribing(_, let parent, _, _), .awaitingResult(_, let parent, _), .awaitingDemand(_, let parent):
            parent
        case .terminated(_, let parent): parent
        }
    }

    /// The downstream's box, for the mirror; `nil` once terminated.
    @inlinable
    var downstream: AnyObject? {
        switch phase {
        case .subscribing(let downstream, _, _, _), .awaitingResult(let downstream, _, _),
            .awaitingDemand(let downstream, _):
            downstream
        case .terminated: nil
        }
    }

    /// Whether a request is pending, for the mirror.
    @inlinable
    var hasAnyDemand: Bool {
        switch phase {
        case .subscribing(_, _, _, let demanded), .awaitingResult(_, _, let demanded), .terminated(let demanded, _):
            demanded
        case .awaitingDemand: false
        }
    }
}
