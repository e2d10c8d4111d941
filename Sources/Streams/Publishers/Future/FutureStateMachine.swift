/// The state of a ``Future``: a value with no lock and no callouts. Each event method updates it
/// and returns what the future must do once its lock is released.
///
/// Phases, and the events that move between them:
/// - `pending(waiting)`: a subscriber arrives → it joins `waiting`; one is cancelled → it leaves
///   `waiting`; the promise is called → `resolved`, and every waiting subscriber gets the result.
/// - `resolved(result)`: a subscriber arrives → it gets `result` at once; later promise calls and
///   cancellations change nothing.
///
/// The machine is not generic: it keeps the subscriptions, and the result's value or error in a
/// ``Box``, as `AnyObject`s, which the future casts back. A generic machine made every future's
/// deinitialisation look up the metadata of its phase, its result and the lock around them,
/// about 1,300 instructions a future.
@usableFromInline
struct FutureStateMachine {
    /// A result: the value (`Box<Output>`) or the error (`Box<Failure>`).
    @usableFromInline
    enum Resolution {
        case success(AnyObject)
        case failure(AnyObject)
    }

    @usableFromInline
    enum Phase {
        /// The promise has not been called; `waiting` are the subscriptions attached meanwhile.
        case pending(waiting: [AnyObject])
        /// The promise has been called; `result` is what every subscriber gets.
        case resolved(Resolution)
    }

    @usableFromInline
    var phase = Phase.pending(waiting: [])

    @inlinable
    init() {}

    /// The promise was called with `result`: returns the subscriptions to hand it to, or `nil`
    /// when an earlier call already won.
    @inlinable
    mutating func fulfill(_ result: Resolution) -> [AnyObject]? {
        guard case .pending(let waiting) = phase else { return nil }
        phase = .resolved(result)
        return waiting
    }

    /// `conduit` subscribed: returns the result to hand it at once, or `nil` when it must wait.
    @inlinable
    mutating func subscribe(_ conduit: AnyObject) -> Resolution? {
        switch phase {
        case .pending(var waiting):
            phase = .pending(waiting: [])  // Lets go of the array so that appending does not copy it.
            waiting.append(conduit)
            phase = .pending(waiting: waiting)
            return nil
        case .resolved(let result):
            return result
        }
    }

    /// The result, once the promise has been called.
    @inlinable
    var result: Resolution? {
        if case .resolved(let result) = phase { result } else { nil }
    }

    /// `conduit` was cancelled: it no longer waits for the result.
    @inlinable
    mutating func remove(_ conduit: AnyObject) {
        guard case .pending(var waiting) = phase else { return }
        phase = .pending(waiting: [])
        waiting.removeAll { $0 === conduit }
        phase = .pending(waiting: waiting)
    }
}
