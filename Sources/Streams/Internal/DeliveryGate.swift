import Synchronization

/// Lets values through to a subscriber without a lock and without a retain, and makes sure that
/// the subscriber (or the closures standing for it) is released exactly once.
///
/// Values arrive one at a time (the publisher contract), but a cancel or a completion may come
/// from another thread, or from inside the delivery itself. The gate tells each side what the
/// other is doing: a delivery `enter`s and `leave`s; `close` ends the gate for good and says
/// whether a delivery was under way. Whoever closes an idle gate releases the subscriber at once;
/// a delivery that finds the gate closed when it leaves releases it then. Until then the
/// subscriber stays where it is, so a delivery can call it through an unretained reference.
///
/// A gate made `pending` (``init(pending:)``) lets no delivery in until it is `open`ed: the
/// multicast inner uses that to ignore values that arrive before its subscription.
///
/// Its users (Sink, SubjectSubscriber, MulticastInner) spell the enter/leave/close sequence out
/// inline: handing the delivery and the release to a helper as closures was measured at 30 to 60
/// percent more instructions per value.
@usableFromInline
struct DeliveryGate: ~Copyable {
    /// Where the gate stands.
    @usableFromInline
    enum Phase: Int {
        case open, delivering, closed, pending
    }

    @usableFromInline
    let state: Atomic<Int>

    /// An open gate.
    @inlinable
    init() {
        state = Atomic(Phase.open.rawValue)
    }

    /// A gate that stays shut to deliveries until ``open()`` (when `pending` is true).
    @inlinable
    init(pending: Bool) {
        state = Atomic((pending ? Phase.pending : Phase.open).rawValue)
    }

    /// Opens a pending gate; does nothing to a gate that is open, delivering or closed.
    @inlinable
    func open() {
        _ = state.compareExchange(
            expected: Phase.pending.rawValue, desired: Phase.open.rawValue, ordering: .acquiringAndReleasing)
    }

    /// Starts a delivery; false once the gate is closed.
    @inlinable
    func enter() -> Bool {
        state.compareExchange(expected: Phase.open.rawValue, desired: Phase.delivering.rawValue, ordering: .acquiring)
            .exchanged
    }

    /// Ends a delivery; false when the gate was closed during it, which leaves the release to
    /// the caller.
    @inlinable
    func leave() -> Bool {
        state.compareExchange(expected: Phase.delivering.rawValue, desired: Phase.open.rawValue, ordering: .releasing)
            .exchanged
    }

    /// Closes the gate for good and returns where it stood: `.open` (or `.pending`: never
    /// opened) means the caller releases now, `.delivering` that the delivery under way releases
    /// when it leaves, `.closed` that someone closed it before.
    @inlinable
    func close() -> Phase {
        Phase(rawValue: state.exchange(Phase.closed.rawValue, ordering: .acquiringAndReleasing))!
    }
}
