/// The state of a ``Publishers/Autoconnect``: its connection and how many subscribers use it.
/// A value with no lock and no callouts; `connect()` and the connection's `cancel()` run outside
/// the lock, as the events' results say.
///
/// Phases:
/// - `disconnected`: a subscriber arrives → `connecting(1)`, and it must connect.
/// - `connecting(count)`: the first subscriber's `connect()` is under way. Subscribers that
///   arrive meanwhile (also re-entrantly, from inside `connect()`) join it instead of connecting
///   again. The connection returns → `connected(count, connection)`, or, when every subscriber
///   left meanwhile, → `disconnected` and the connection is cancelled at once.
/// - `connected(count, connection)`: subscribers join and leave; the last one to leave →
///   `disconnecting(0)`, cancelling the connection.
/// - `disconnecting(count)`: the connection's `cancel()` is under way. Subscribers that arrive
///   meanwhile (from another thread, or re-entrantly from inside `cancel()`) are counted but do
///   not connect: two connections would overlap, and each value the upstream sends meanwhile
///   would reach the subject twice. The cancel returns → `disconnected`, or, when subscribers
///   arrived meanwhile, → `connecting(count)` and the thread that cancelled connects for them.
@usableFromInline
struct AutoconnectStateMachine {
    @usableFromInline
    enum Phase {
        case disconnected
        case connecting(subscribers: Int)
        case connected(subscribers: Int, connection: any Cancellable)
        case disconnecting(subscribers: Int)
    }

    @usableFromInline
    var phase = Phase.disconnected

    @inlinable
    init() {}

    /// A subscriber arrives: whether it must connect (after subscribing itself).
    @inlinable
    mutating func subscriberArrived() -> Bool {
        switch phase {
        case .disconnected:
            phase = .connecting(subscribers: 1)
            return true
        case .connecting(let count):
            phase = .connecting(subscribers: count + 1)
            return false
        case .connected(let count, let connection):
            phase = .connected(subscribers: count + 1, connection: connection)
            return false
        case .disconnecting(let count):
            phase = .disconnecting(subscribers: count + 1)
            return false
        }
    }

    /// `connect()` returned `connection`: the connection to cancel at once when nobody is left
    /// to use it (then report ``disconnected()``).
    @inlinable
    mutating func connected(_ connection: any Cancellable) -> (any Cancellable)? {
        guard case .connecting(let count) = phase else {
            preconditionFailure("AutoconnectStateMachine: internal inconsistency: connected while not connecting")
        }
        guard count > 0 else {
            phase = .disconnecting(subscribers: 0)
            return connection
        }
        phase = .connected(subscribers: count, connection: connection)
        return nil
    }

    /// A subscriber's subscription was cancelled: the connection to cancel when it was the last
    /// (then report ``disconnected()``). A cancel with no subscriber to count (only a connectable
    /// upstream that hands one subscriber several subscriptions can cause one) is ignored.
    @inlinable
    mutating func subscriberLeft() -> (any Cancellable)? {
        switch phase {
        case .disconnected, .connecting(subscribers: 0), .disconnecting(subscribers: 0):
            return nil
        case .connecting(let count):
            phase = .connecting(subscribers: count - 1)
            return nil
        case .disconnecting(let count):
            phase = .disconnecting(subscribers: count - 1)
            return nil
        case .connected(subscribers: 1, let connection):
            phase = .disconnecting(subscribers: 0)
            return connection
        case .connected(let count, let connection):
            phase = .connected(subscribers: count - 1, connection: connection)
            return nil
        }
    }

    /// The connection's `cancel()` returned: whether the caller must connect again, for the
    /// subscribers that arrived meanwhile.
    @inlinable
    mutating func disconnected() -> Bool {
        guard case .disconnecting(let count) = phase else {
            preconditionFailure(
                "AutoconnectStateMachine: internal inconsistency: disconnected while not disconnecting")
        }
        guard count > 0 else {
            phase = .disconnected
            return false
        }
        phase = .connecting(subscribers: count)
        return true
    }
}
