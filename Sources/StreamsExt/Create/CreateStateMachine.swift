import Streams

/// The state of a `create` subscription: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `subscribed(downstream)`: values go downstream while there is demand, and are queued
///   otherwise; one thread at a time delivers (`delivering`), draining the queue as demand
///   allows.
/// - `completing(downstream, completion)`: the completion was sent while values were queued
///   or being delivered. Until the downstream's first request it waits behind the queued
///   values; from then on it follows only those the demand covers, and the others are dropped
///   (CombineExt's rule).
/// - `terminated`: completed or cancelled; everything has been let go and is ignored.
///
/// The queue, the demand not yet met, whether the downstream has requested yet and the
/// factory's cancellable sit beside the phase.
@usableFromInline
struct CreateStateMachine<Downstream: Subscriber> {
    @usableFromInline
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    @usableFromInline
    enum Phase {
        case subscribed(Box<Downstream>)
        case completing(Box<Downstream>, Completion)
        case terminated
    }

    @usableFromInline
    var phase: Phase
    @usableFromInline
    var queue: [Downstream.Input] = []
    @usableFromInline
    var queueHead = 0
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var delivering = false
    /// Whether the downstream has called `request(_:)` (with any demand, `.none` included).
    @usableFromInline
    var requested = false
    /// What the factory returned, once it has.
    @usableFromInline
    var cancellable: (any Cancellable)?

    @inlinable
    init(downstream: Downstream) {
        phase = .subscribed(Box(downstream))
    }

    @inlinable
    var downstream: Box<Downstream>? {
        switch phase {
        case .subscribed(let downstream), .completing(let downstream, _): downstream
        case .terminated: nil
        }
    }

    @inlinable
    var queueIsEmpty: Bool { queueHead == queue.count }

    @usableFromInline
    enum AttachAction {
        /// The subscription has already ended: cancel it.
        case cancel
        case none
    }

    @inlinable
    mutating func attach(_ cancellable: any Cancellable) -> AttachAction {
        guard case .terminated = phase else {
            self.cancellable = cancellable
            return .none
        }
        return .cancel
    }

    /// What a thread does next to deliver.
    @usableFromInline
    enum DeliveryAction {
        /// Send this value to this downstream, then report with ``delivered(_:)``.
        case deliver(Box<Downstream>, Downstream.Input)
        /// Send this completion, then cancel the factory's cancellable; the queue's values
        /// (dropped or delivered) are let go of outside the lock.
        case complete(Box<Downstream>, Completion, cancel: (any Cancellable)?, released: [Downstream.Input])
        case none
    }

    @inlinable
    mutating func send(_ value: Downstream.Input) -> DeliveryAction {
        guard case .subscribed = phase else { return .none }
        queue.append(value)
        return next()
    }

    @inlinable
    mutating func send(completion: Completion) -> DeliveryAction {
        guard case .subscribed(let downstream) = phase else { return .none }
        phase = .completing(downstream, completion)
        return next()
    }

    @inlinable
    mutating func delivered(_ additional: Subscribers.Demand) -> DeliveryAction {
        delivering = false
        demand += additional
        return next()
    }

    @inlinable
    mutating func request(_ additional: Subscribers.Demand) -> DeliveryAction {
        guard downstream != nil else { return .none }
        requested = true
        demand += additional
        return next()
    }

    /// The next thing to deliver, unless another thread is delivering. A completion goes once
    /// the queue is empty or, after the downstream's first request, once the demand is used up:
    /// the values still queued are dropped.
    @inlinable
    mutating func next() -> DeliveryAction {
        guard !delivering, let downstream else { return .none }
        if !queueIsEmpty, demand > 0 {
            let value = queue[queueHead]
            queueHead += 1
            if queueIsEmpty {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
            }
            demand -= 1
            delivering = true
            return .deliver(downstream, value)
        }
        guard queueIsEmpty || requested, case .completing(_, let completion) = phase else { return .none }
        let cancel = cancellable
        return .complete(downstream, completion, cancel: cancel, released: end())
    }

    @usableFromInline
    enum CancelAction {
        /// Cancel the factory's work (if it has returned yet); the downstream and the queued
        /// values are let go of outside the lock.
        case cancel((any Cancellable)?, released: Box<Downstream>, queue: [Downstream.Input])
        case none
    }

    @inlinable
    mutating func cancel() -> CancelAction {
        guard let downstream else { return .none }
        let cancel = cancellable
        return .cancel(cancel, released: downstream, queue: end())
    }

    /// Moves to `terminated`; returns the queue, to let go of outside the lock.
    @inlinable
    mutating func end() -> [Downstream.Input] {
        phase = .terminated
        let released = queue
        queue = []
        queueHead = 0
        cancellable = nil
        return released
    }
}
