import Synchronization

/// A path for values to a downstream that takes no lock: for the operators whose values, once
/// flowing, need no state (a closed circuit breaker's call after its outcome is told, a limiter's
/// admitted call): two atomic operations per value and no reference counting (Docs/Resilience.md
/// has the figures).
///
/// The lane holds its own reference to the downstream, beside the one in the subscription's
/// state machine. It opens once the upstream may send values and closes at the completion or the
/// cancel; whichever side finds it closed and idle lets the downstream go, so a cancel releases
/// the downstream at once, or, when a value is being delivered on another thread at that moment,
/// as soon as that delivery returns. Deliveries may nest (a downstream that asks for more inside
/// `receive(_:)` may get the next value before it returns), which is why the lane counts them
/// where ``DeliveryGate`` keeps one bit.
///
/// The lane cannot be copied: a subscription stores it as a constant, and an unclosed lane lets
/// the downstream go when the subscription goes away.
///
/// ```swift
/// let lane = ValueLane(downstream)
/// lane.open()                              // the upstream is subscribed
/// if let demand = lane.deliver(value) { return demand }
/// lane.close()                             // completion or cancel: nothing passes after this
/// ```
@usableFromInline
struct ValueLane<Downstream: Subscriber>: ~Copyable {
    /// Holds the downstream in a constant, so that a call through an unretained holder borrows
    /// it: a downstream read from a variable would be retained and released around every call.
    @usableFromInline
    final class Holder {
        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(_ downstream: Downstream) {
            self.downstream = downstream
        }
    }

    /// Bit 0: closed; bit 1: open; the rest: deliveries under way, in units of ``delivery``.
    @usableFromInline
    let flags = Atomic<Int>(0)
    /// The lane's one reference to the holder, released once: by whoever finds the lane closed
    /// and idle (the flags make sure), or when the lane goes away unclosed.
    @usableFromInline
    let holder: Unmanaged<Holder>

    @usableFromInline
    static var closed: Int { 1 }
    @usableFromInline
    static var opened: Int { 2 }
    @usableFromInline
    static var delivery: Int { 4 }

    @inlinable
    init(_ downstream: Downstream) {
        holder = .passRetained(Holder(downstream))
    }

    @inlinable
    deinit {
        if flags.load(ordering: .acquiring) & Self.closed == 0 { holder.release() }
    }

    /// Lets values through from now on, unless the lane was closed before.
    @inlinable
    func open() {
        flags.bitwiseOr(Self.opened, ordering: .releasing)
    }

    /// Delivers `input` and returns the downstream's demand; nil, delivering nothing, when the
    /// lane is not open or was closed.
    @inlinable
    func deliver(_ input: Downstream.Input) -> Subscribers.Demand? {
        var current = flags.load(ordering: .acquiring)
        while true {
            guard current & (Self.opened | Self.closed) == Self.opened else { return nil }
            let (exchanged, found) = flags.weakCompareExchange(
                expected: current, desired: current &+ Self.delivery, successOrdering: .acquiring,
                failureOrdering: .acquiring)
            if exchanged { break }
            current = found
        }
        let demand = holder._withUnsafeGuaranteedRef { $0.downstream.receive(input) }
        let before = flags.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing).oldValue
        if before & Self.closed != 0 && before < 2 * Self.delivery {
            // Closed during this delivery, the last one under way: the release is ours.
            holder.release()
        }
        return demand
    }

    /// Closes the lane for good: nothing passes after this returns. Lets the downstream go now,
    /// or, if a delivery is under way, when it returns.
    @inlinable
    func close() {
        let before = flags.bitwiseOr(Self.closed, ordering: .acquiringAndReleasing).oldValue
        if before & Self.closed == 0 && before < Self.delivery {
            holder.release()
        }
    }
}
