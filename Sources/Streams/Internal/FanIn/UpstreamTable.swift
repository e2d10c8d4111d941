/// The upstreams of a fan-in operator (`merge`, `combineLatest`, `zip`), one row each: its
/// subscription, whether it has finished, and the values it sent that are still needed (the
/// latest one for `combineLatest`, the unpaired ones for `zip`). A plain value with no lock,
/// kept by ``FanInStateMachine``.
///
/// Values are type-erased (`Any`), so that one non-generic table serves every arity; the
/// operator casts them back when it builds its tuple.
@usableFromInline
package struct UpstreamTable {
    /// One upstream.
    @usableFromInline
    package enum Row {
        /// Subscribed to; its subscription has not arrived yet.
        case awaiting
        case live(any Subscription)
        /// Finished; its subscription was let go.
        case finished
    }

    @usableFromInline
    package var rows: [Row]
    /// Rows still `awaiting`.
    @usableFromInline
    package var awaitingCount: Int
    /// Rows `finished`.
    @usableFromInline
    package var finishedCount = 0
    /// `combineLatest`: the latest value of each upstream; `()` until it sent one. Empty when
    /// the operator keeps the values itself (a collection's `combineLatest`, ``LatestValues``).
    @usableFromInline
    package var latest: [Any]
    /// `combineLatest`: which upstreams have sent a value.
    @usableFromInline
    package var hasLatest: [Bool]
    /// How many upstreams lack what a combined value needs: for `combineLatest`, those that
    /// have not sent a value yet; for `zip`, those whose queue is empty, so that a value that
    /// completes no tuple costs a constant amount of work, whatever the number of upstreams. One
    /// field for both modes: a second one made every `combineLatest` value dearer, although only
    /// `zip` uses it (Docs/Performance.md, "Why the code is shaped this way", has the figure).
    @usableFromInline
    package var missing: Int
    /// `zip`: the values of each upstream waiting for their partners, oldest first.
    @usableFromInline
    package var queues: [[Any]]

    /// A table of `count` upstreams that keeps what `mode` needs; `combineLatest`'s values only
    /// if `keepsLatest`.
    @inlinable
    package init(count: Int, mode: FanInStateMachine.Mode, keepsLatest: Bool = true) {
        rows = Array(repeating: .awaiting, count: count)
        awaitingCount = count
        latest = mode == .latest && keepsLatest ? Array(repeating: (), count: count) : []
        hasLatest = mode == .latest ? Array(repeating: false, count: count) : []
        missing = mode == .merge ? 0 : count
        queues = mode == .zip ? Array(repeating: [], count: count) : []
    }

    @inlinable
    package var count: Int { rows.count }

    /// Records the subscription of upstream `index`; false if it already had one (or finished).
    @inlinable
    package mutating func attach(_ subscription: any Subscription, at index: Int) -> Bool {
        guard case .awaiting = rows[index] else { return false }
        rows[index] = .live(subscription)
        awaitingCount -= 1
        return true
    }

    /// Records that upstream `index` finished; false if it already had.
    @inlinable
    package mutating func finish(at index: Int) -> Bool {
        if case .finished = rows[index] { return false }
        if case .awaiting = rows[index] { awaitingCount -= 1 }
        rows[index] = .finished
        finishedCount += 1
        return true
    }

    /// Records `value` as the latest of upstream `index` and leaves the value it replaces in
    /// `value` (to be let go outside the lock); true once every upstream has one.
    @inlinable
    package mutating func recordLatest(_ value: inout Any, at index: Int) -> Bool {
        swap(&latest[index], &value)
        return recordPresence(at: index)
    }

    /// Records that upstream `index` has sent a value, which the operator keeps itself (a
    /// collection's `combineLatest`, ``LatestValues``); true once every upstream has sent one.
    @inlinable
    package mutating func recordPresence(at index: Int) -> Bool {
        if missing > 0, !hasLatest[index] {
            hasLatest[index] = true
            missing -= 1
        }
        return missing == 0
    }

    /// Queues `value` from upstream `index`; the oldest value of each upstream once every
    /// upstream has one, taken out of the queues.
    @inlinable
    package mutating func enqueue(_ value: Any, at index: Int) -> [Any]? {
        if queues[index].isEmpty { missing -= 1 }
        queues[index].append(value)
        guard missing == 0 else { return nil }
        var heads: [Any] = []
        heads.reserveCapacity(queues.count)
        for upstream in queues.indices {
            heads.append(queues[upstream].removeFirst())
            if queues[upstream].isEmpty { missing += 1 }
        }
        return heads
    }

    /// `zip`: whether an upstream has finished with no value left to pair, so no tuple can
    /// follow.
    @inlinable
    package var zipExhausted: Bool {
        for index in rows.indices {
            if case .finished = rows[index], queues[index].isEmpty { return true }
        }
        return false
    }

    /// The live subscriptions, for cancelling.
    @inlinable
    package var liveSubscriptions: [any Subscription] {
        rows.compactMap { row in
            if case .live(let subscription) = row { return subscription }
            return nil
        }
    }
}
