
/// The downstream end of an operator that merges events from several upstreams (`merge`,
/// `flatMap`, `switchToLatest`, `combineLatest`, `zip`).
///
/// It makes deliveries serial without a recursive lock: the call that finds no delivery in
/// progress becomes the deliverer and drains the buffer; values arriving meanwhile, from other
/// threads or re-entrantly, are buffered (or dropped, for `combineLatest`). It counts the
/// downstream's demand, so values beyond it wait in the buffer. A `.finished` waits behind
/// buffered values; a failure discards them and goes next. The lock is never held while the
/// downstream runs.
///
/// `onDelivered` is told the source of each delivered value (`flatMap` asks that inner for one
/// more); `onDemand` is told the demand the downstream returns from `receive(_:)`, so that the
/// operator can ask its upstreams for it. Both run outside the lock; they capture their
/// operator `unowned`, since the operator owns the outlet.
@usableFromInline
final class Outlet<Downstream: Subscriber>: @unchecked Sendable {
    @usableFromInline
    typealias Input = Downstream.Input

    @usableFromInline
    let lock = Lock()

    @usableFromInline
    let onDelivered: ((Int) -> Void)?
    @usableFromInline
    let onDemand: ((Subscribers.Demand) -> Void)?

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var delivering = false
    @usableFromInline
    @exclusivity(unchecked)
    var buffer: [(value: Input, source: Int)] = []
    @usableFromInline
    @exclusivity(unchecked)
    var bufferHead = 0
    @usableFromInline
    @exclusivity(unchecked)
    var pendingCompletion: Subscribers.Completion<Downstream.Failure>?

    @inlinable
    init(
        downstream: Downstream,
        onDelivered: ((Int) -> Void)? = nil,
        onDemand: ((Subscribers.Demand) -> Void)? = nil
    ) {
        self.downstream = downstream
        self.onDelivered = onDelivered
        self.onDemand = onDemand
    }

    @inlinable
    var bufferedCount: Int { buffer.count - bufferHead }

    /// The demand not yet used up by delivered or buffered values.
    @inlinable
    var unclaimedDemand: Subscribers.Demand {
        lock.withLockUnchecked { demand - bufferedCount }
    }

    /// Delivers `value` now, or buffers it behind a delivery in progress or until there is
    /// demand. With `dropWithoutDemand`, a value that no demand is left for is dropped instead.
    @inlinable
    func send(_ value: Input, from source: Int = 0, dropWithoutDemand: Bool = false) {
        let deliverer = lock.withLockUnchecked { () -> Downstream? in
            guard let downstream, pendingCompletion == nil else { return nil }
            if delivering || bufferedCount > 0 || demand == .none {
                if !dropWithoutDemand || demand > bufferedCount {
                    buffer.append((value, source))
                }
                return nil
            }
            demand -= 1
            delivering = true
            return downstream
        }
        guard let deliverer else { return }
        let additional = deliverer.receive(value)
        drain(adding: additional, delivered: source)
    }

    /// Completes the downstream once buffered values are out (`.finished`) or next (a failure).
    @inlinable
    func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let taken = lock.withLockUnchecked { () -> (Downstream, Any)? in
            guard downstream != nil, pendingCompletion == nil else { return nil }
            if case .failure = completion {
                buffer = []
                bufferHead = 0
            }
            guard !delivering, bufferedCount == 0 else {
                pendingCompletion = completion
                return nil
            }
            let released = takeAll()
            return released.downstream.map { ($0, released.rest) }
        }
        taken?.0.receive(completion: completion)
    }

    /// Adds demand and delivers buffered values it allows.
    @inlinable
    func request(_ demand: Subscribers.Demand) {
        let mustDrain = lock.withLockUnchecked { () -> Bool in
            guard downstream != nil else { return false }
            self.demand += demand
            guard !delivering, bufferedCount > 0 else { return false }
            delivering = true
            return true
        }
        if mustDrain {
            drain(adding: .none, delivered: nil)
        }
    }

    /// Drops the downstream and everything buffered.
    @inlinable
    func cancel() {
        let released = lock.withLockUnchecked { takeAll() }
        withExtendedLifetime(released) {}
    }

    /// Empties the state and hands it out, so that it dies outside the lock; call with the lock
    /// held.
    @inlinable
    func takeAll() -> (downstream: Downstream?, rest: Any) {
        defer {
            downstream = nil
            buffer = []
            bufferHead = 0
            pendingCompletion = nil
        }
        return (downstream, buffer)
    }

    /// Delivers what the buffer and demand allow, then the pending completion if it is due;
    /// runs only while holding `delivering`. `additional` is the demand the downstream returned
    /// for the value from `source` it was just given, if any.
    @inlinable
    func drain(adding additional: Subscribers.Demand, delivered source: Int?) {
        var additional = additional
        var delivered = source
        while true {
            if let source = delivered { onDelivered?(source) }
            if additional > 0 { onDemand?(additional) }
            let step = lock.withLockUnchecked { () -> DrainStep in
                guard let downstream else {
                    delivering = false
                    return .stop
                }
                demand += additional
                if bufferedCount > 0, demand > 0 {
                    demand -= 1
                    let next = buffer[bufferHead]
                    bufferHead += 1
                    if bufferHead == buffer.count {
                        buffer.removeAll(keepingCapacity: true)
                        bufferHead = 0
                    }
                    return .deliver(downstream, next.value, next.source)
                }
                if let completion = pendingCompletion, bufferedCount == 0 {
                    let released = takeAll()
                    delivering = false
                    return .complete(downstream, completion, released.rest)
                }
                delivering = false
                return .stop
            }
            switch step {
            case let .deliver(downstream, value, source):
                additional = downstream.receive(value)
                delivered = source
            case let .complete(downstream, completion, _):
                downstream.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }

    /// One step of `drain`, decided under the lock and carried out outside it.
    @usableFromInline
    enum DrainStep {
        case deliver(Downstream, Input, Int)
        case complete(Downstream, Subscribers.Completion<Downstream.Failure>, Any)
        case stop
    }
}
