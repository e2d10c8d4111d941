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
package struct ValueLane<Downstream: Subscriber>: ~Copyable {
    /// Holds the downstream in a constant, so that a call through an unretained holder borrows
    /// it: a downstream read from a variable would be retained and released around every call.
    @usableFromInline
    package final class Holder {
        @usableFromInline
        package let downstream: Downstream

        @inlinable
        package init(_ downstream: Downstream) {
            self.downstream = downstream
        }
    }

    /// Bit 0: closed; bit 1: open; bit 2: the holder was released; the rest: deliveries under
    /// way (or looking in), in units of ``delivery``.
    @usableFromInline
    package let flags = Atomic<Int>(0)
    /// The lane's one reference to the holder, released once: by whoever finds the lane closed
    /// and idle and claims the release (the flags make sure), or when the lane goes away without
    /// having released it.
    @usableFromInline
    package let holder: Unmanaged<Holder>

    @usableFromInline
    package static var closed: Int { 1 }
    @usableFromInline
    package static var opened: Int { 2 }
    @usableFromInline
    package static var released: Int { 4 }
    @usableFromInline
    package static var delivery: Int { 8 }

    @inlinable
    package init(_ downstream: Downstream) {
        holder = .passRetained(Holder(downstream))
    }

    @inlinable
    deinit {
        if flags.load(ordering: .acquiring) & Self.released == 0 { holder.release() }
    }

    /// Lets values through from now on, unless the lane was closed before.
    @inlinable
    package func open() {
        flags.bitwiseOr(Self.opened, ordering: .releasing)
    }

    /// Delivers `input` and returns the downstream's demand; nil, delivering nothing, when the
    /// lane is not open or was closed.
    ///
    /// One atomic operation enters: the delivery is counted first and the lane's state read from
    /// the same operation, and a delivery that finds the lane not open uncounts itself at once.
    /// Always inlined, so that a value costs no call of its own between the subscription's
    /// `receive(_:)` and the downstream's.
    @inlinable
    @inline(__always)
    package func deliver(_ input: Downstream.Input) -> Subscribers.Demand? {
        let entered = flags.wrappingAdd(Self.delivery, ordering: .acquiring).oldValue
        guard _fastPath(entered & (Self.opened | Self.closed) == Self.opened) else {
            leave()
            return nil
        }
        let demand = holder._withUnsafeGuaranteedRef { $0.downstream.receive(input) }
        leave()
        return demand
    }

    /// Uncounts a delivery; the last one out of a closed lane lets the downstream go, unless
    /// that was done already (a delivery that looked in after the close finds it done).
    @inlinable
    @inline(__always)
    package func leave() {
        let before = flags.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing).oldValue
        if _slowPath(before & Self.closed != 0) && before < 2 * Self.delivery {
            releaseOnce()
        }
    }

    /// Lets the downstream go if no one has: the closed lane is idle.
    @inlinable
    @inline(never)
    package func releaseOnce() {
        if flags.bitwiseOr(Self.released, ordering: .acquiringAndReleasing).oldValue & Self.released == 0 {
            holder.release()
        }
    }

    /// Closes the lane for good: nothing passes after this returns. Lets the downstream go now,
    /// or, if a delivery is under way, when it returns.
    @inlinable
    package func close() {
        let before = flags.bitwiseOr(Self.closed, ordering: .acquiringAndReleasing).oldValue
        if before & Self.closed == 0 && before < Self.delivery {
            releaseOnce()
        }
    }
}
