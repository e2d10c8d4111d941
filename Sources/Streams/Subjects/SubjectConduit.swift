import Synchronization

/// A subject's handle on one subscriber's conduit.
///
/// The closures are made where the conduit's type is known, so that sending through them runs
/// specialised code; calling a generic class's methods through a base class would run the
/// unspecialised implementation, which looks type metadata up on every value.
@usableFromInline
struct SubjectConduitEntry<Output, Failure: Error> {
    /// The conduit, for identity.
    @usableFromInline
    let conduit: AnyObject
    /// Delivers a value (or queues it behind a delivery in progress).
    @usableFromInline
    let offer: (Output) -> Void
    /// Delivers the completion (or queues it behind a delivery in progress).
    @usableFromInline
    let finish: (Subscribers.Completion<Failure>) -> Void

    @inlinable
    init<Downstream: Subscriber>(_ conduit: SubjectConduit<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.conduit = conduit
        offer = { conduit.offer($0) }
        finish = { conduit.finish($0) }
    }
}

/// One subscriber's subscription to a subject.
///
/// Deliveries to the subscriber are serial without a recursive lock: `delivering` marks that
/// some call is delivering; any value or completion that arrives meanwhile (from another thread,
/// or re-entrantly from the subscriber itself) is queued, and the delivering call drains the
/// queue before it returns. The lock is never held while the subscriber runs.
///
/// With `buffersLatest` (``CurrentValueSubject``), a value that finds no demand is kept in a
/// one-slot buffer and delivered on the next request instead of being dropped.
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    typealias Output = Downstream.Input
    @usableFromInline
    typealias Failure = Downstream.Failure

    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// The modes of the value path (see `mode`).
    @usableFromInline
    enum Mode: Int {
        case fastIdle, fastBusy, slow
    }

    @usableFromInline
    let lock = Lock()
    @usableFromInline
    let buffersLatest: Bool
    /// While the subscriber has unlimited demand and nothing is queued, buffered, delivering or
    /// terminated, the conduit is in `fastIdle` mode: `offer` claims the delivery by turning it
    /// into `fastBusy` with one atomic operation, delivers without the lock, and turns it back.
    /// Everything else takes the lock and first leaves the fast mode (`leaveFastMode()`); if a
    /// fast delivery was under way, that delivery becomes the one `delivering` stands for and
    /// drains what was queued behind it. `drain` returns the conduit to the fast mode when it can.
    @usableFromInline
    let mode = Atomic<Int>(Mode.slow.rawValue)
    /// The subscriber's box, unretained, for fast deliveries: in the fast modes nothing releases
    /// it.
    @usableFromInline
    let fastReceiver: Unmanaged<Box<Downstream>>

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var core: SubjectCore<Output, Failure>?
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var notifiedCore = false
    @usableFromInline
    @exclusivity(unchecked)
    var delivering = true  // until `start()` has handed over the subscription
    @usableFromInline
    @exclusivity(unchecked)
    var terminated = false
    @usableFromInline
    @exclusivity(unchecked)
    var buffered: Output?
    @usableFromInline
    @exclusivity(unchecked)
    var queue: [Event] = []
    @usableFromInline
    @exclusivity(unchecked)
    var queueHead = 0

    @inlinable
    init(downstream: Downstream, core: SubjectCore<Output, Failure>, buffered: Output?) {
        let box = Box(downstream)
        self.downstream = box
        fastReceiver = .passUnretained(box)
        self.core = core
        self.buffered = buffered
        buffersLatest = buffered != nil
    }

    /// Hands the subscription to the subscriber, then delivers whatever arrived meanwhile.
    @inlinable
    func start() {
        guard let downstream = lock.withLockUnchecked({ downstream }) else { return }
        downstream.value.receive(subscription: self)
        drain(adding: .none)
    }

    @inlinable
    func offer(_ value: Output) {
        if mode.compareExchange(expected: Mode.fastIdle.rawValue, desired: Mode.fastBusy.rawValue, ordering: .acquiring)
            .exchanged
        {
            // The demand is unlimited, so what the subscriber returns changes nothing.
            _ = fastReceiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
            if !mode.compareExchange(expected: Mode.fastBusy.rawValue, desired: Mode.fastIdle.rawValue, ordering: .releasing)
                .exchanged
            {
                // Something took the lock path meanwhile and left this delivery to drain.
                drain(adding: .none)
            }
            return
        }
        let receiver = lock.withLockUnchecked { () -> Unmanaged<Box<Downstream>>? in
            leaveFastMode()
            guard !terminated, let downstream else { return nil }
            if delivering {
                queue.append(.value(value))
                return nil
            }
            guard demand > 0 else {
                if buffersLatest { buffered = value }
                return nil
            }
            demand -= 1
            delivering = true
            return Unmanaged.passUnretained(downstream)
        }
        // Unretained: nothing releases the subscriber while `delivering` is set.
        guard let receiver else { return }
        drain(adding: receiver._withUnsafeGuaranteedRef { $0.value.receive(value) })
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let receiver = lock.withLockUnchecked { () -> Box<Downstream>? in
            leaveFastMode()
            guard !terminated else { return nil }
            if delivering {
                queue.append(.completion(completion))
                return nil
            }
            return terminate()
        }
        receiver?.value.receive(completion: completion)
    }

    /// Leaves the fast mode; call with the lock held. A fast delivery under way becomes the
    /// delivery `delivering` stands for.
    @inlinable
    func leaveFastMode() {
        if mode.exchange(Mode.slow.rawValue, ordering: .acquiringAndReleasing) == Mode.fastBusy.rawValue {
            delivering = true
        }
    }

    /// Clears `delivering` and returns to the fast mode if nothing stands in its way; call with
    /// the lock held.
    @inlinable
    func stopDelivering() {
        delivering = false
        if demand == .unlimited, !terminated, buffered == nil, queueHead == queue.count {
            mode.store(Mode.fastIdle.rawValue, ordering: .releasing)
        }
    }

    /// Marks the conduit finished and hands back the subscriber to be released outside the
    /// lock; call with the lock held. While a delivery is under way the subscriber stays, and
    /// the delivering call releases it when the delivery returns.
    @inlinable
    func terminate() -> Box<Downstream>? {
        terminated = true
        buffered = nil
        core = nil
        guard !delivering else { return nil }
        defer { downstream = nil }
        return downstream
    }

    /// Adds the demand the subscriber returned, then delivers queued events until the queue is
    /// empty or the demand is used up; clears `delivering` on the way out, and releases the
    /// subscriber if the conduit was cancelled during a delivery.
    @inlinable
    func drain(adding additional: Subscribers.Demand) {
        var additional = additional
        while true {
            let next = lock.withLockUnchecked { () -> DrainStep in
                demand += additional
                if terminated {
                    delivering = false
                    defer { downstream = nil }
                    return .release(downstream)
                }
                // The common case first: nothing queued or buffered.
                if queueHead == queue.count && buffered == nil {
                    if !queue.isEmpty {
                        queue.removeAll(keepingCapacity: true)
                        queueHead = 0
                    }
                    stopDelivering()
                    return .idle
                }
                let receiver = Unmanaged.passUnretained(downstream!)
                if let value = buffered, demand > 0 {
                    buffered = nil
                    demand -= 1
                    return .value(receiver, value)
                }
                while queueHead < queue.count {
                    let event = queue[queueHead]
                    queueHead += 1
                    switch event {
                    case .value(let value):
                        if demand > 0 {
                            demand -= 1
                            return .value(receiver, value)
                        }
                        if buffersLatest { buffered = value }
                    case .completion(let completion):
                        _ = terminate()
                        queue = []
                        queueHead = 0
                        defer { downstream = nil }
                        return .completion(downstream!, completion)
                    }
                }
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
                stopDelivering()
                return .idle
            }
            switch next {
            case .idle:
                return
            case .release(let downstream):
                withExtendedLifetime(downstream) {}
                return
            case .value(let receiver, let value):
                // Unretained: nothing releases the subscriber while `delivering` is set.
                additional = receiver._withUnsafeGuaranteedRef { $0.value.receive(value) }
            case .completion(let downstream, let completion):
                downstream.value.receive(completion: completion)
                return
            }
        }
    }

    /// What `drain(adding:)` does once it has left the lock.
    @usableFromInline
    enum DrainStep {
        /// Nothing more to deliver.
        case idle
        /// Cancelled during the delivery: let go of the subscriber.
        case release(Box<Downstream>?)
        /// Deliver a value.
        case value(Unmanaged<Box<Downstream>>, Output)
        /// Deliver the completion; the conduit has already let go of the subscriber.
        case completion(Box<Downstream>, Subscribers.Completion<Failure>)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        let action = lock.withLockUnchecked { () -> RequestAction in
            leaveFastMode()
            guard !terminated, let downstream else { return .nothing }
            self.demand += demand
            let notify = !notifiedCore
            notifiedCore = true
            if !delivering, let value = buffered {
                buffered = nil
                self.demand -= 1
                delivering = true
                return .deliver(downstream, value, notify: notify)
            }
            return notify ? .notify : .nothing
        }
        switch action {
        case .nothing:
            return
        case .notify:
            notifyCore()
        case let .deliver(downstream, value, notify):
            if notify { notifyCore() }
            drain(adding: downstream.value.receive(value))
        }
    }

    /// What `request(_:)` does once it has left the lock.
    @usableFromInline
    enum RequestAction {
        case nothing
        case notify
        case deliver(Box<Downstream>, Output, notify: Bool)
    }

    /// Tells the subject that this subscriber has asked for values.
    @inlinable
    func notifyCore() {
        lock.withLockUnchecked { core }?.conduitReceivedDemand()
    }

    @inlinable
    func cancel() {
        let released = lock.withLockUnchecked { () -> (Box<Downstream>?, SubjectCore<Output, Failure>?) in
            leaveFastMode()
            guard !terminated else { return (nil, nil) }
            let core = self.core
            queue = []
            queueHead = 0
            return (terminate(), core)
        }
        released.1?.remove(self)
    }

    @usableFromInline
    var description: String { buffersLatest ? "CurrentValueSubject" : "PassthroughSubject" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(self, children: ["downstream": downstream?.value as Any, "demand": demand])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
