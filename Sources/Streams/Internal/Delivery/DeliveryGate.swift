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
/// Its users (Sink, SubjectSubscriber, WeakSubject) spell the enter/leave/close sequence out
/// inline: handing the delivery and the release to a helper as closures costs more per value
/// (Docs/Performance.md has the measured cost).
@usableFromInline
package struct DeliveryGate: ~Copyable {
    /// Where the gate stands.
    @usableFromInline
    package enum Phase: Int {
        case open, delivering, closed
    }

    @usableFromInline
    package let state: Atomic<Int>

    /// An open gate.
    @inlinable
    package init() {
        state = Atomic(Phase.open.rawValue)
    }

    /// Starts a delivery; false once the gate is closed.
    @inlinable
    package func enter() -> Bool {
        state.compareExchange(expected: Phase.open.rawValue, desired: Phase.delivering.rawValue, ordering: .acquiring)
            .exchanged
    }

    /// Ends a delivery; false when the gate was closed during it, which leaves the release to
    /// the caller.
    @inlinable
    package func leave() -> Bool {
        state.compareExchange(expected: Phase.delivering.rawValue, desired: Phase.open.rawValue, ordering: .releasing)
            .exchanged
    }

    /// Closes the gate for good and returns where it stood: `.open` means the caller releases
    /// now, `.delivering` that the delivery under way releases when it leaves, `.closed` that
    /// someone closed it before.
    @inlinable
    package func close() -> Phase {
        Phase(rawValue: state.exchange(Phase.closed.rawValue, ordering: .acquiringAndReleasing))!
    }
}
