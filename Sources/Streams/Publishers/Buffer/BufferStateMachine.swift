/// The state of a ``BufferSubscription``: a value with no lock and no callouts. Each event
/// updates it and returns what the subscription must do once the lock is released.
///
/// Phases:
/// - `awaitingSubscription`: the upstream subscription → `subscribed` (the subscription asks upstream for
///   its initial demand *before* handing itself downstream, as in Combine). A `cancel()` here
///   changes nothing, so a late subscription is still accepted.
/// - `subscribed(upstream)`: values are buffered (or handled by the overflow strategy); an
///   upstream completion, or a `.customError` overflow, → `completing`.
/// - `completing(completion)`: the buffer drains; a failure goes out as soon as a drain finds
///   no demand or nothing buffered, `.finished` once nothing is buffered *and* the downstream has
///   demand. Delivering it → `terminated`. A `.customError` overflow cancels the upstream and
///   starts no drain: its failure waits for the downstream's next request, whose drain sends up
///   to the demand of buffered values, then the failure, and discards the rest (as in Combine).
///   With `.keepFull` that drain still asks the cancelled upstream for the values it sent.
/// - `terminated`: completed or cancelled; buffer and downstream are let go.
///
/// One drain runs at a time (`draining`); a request or value that arrives meanwhile only adds
/// demand or a value, and the running drain carries on with it. `delivered` counts the values a
/// drain sent, which `.keepFull` asks upstream for again.
@usableFromInline
struct BufferStateMachine<Downstream, Value, Failure: Error> {
    @usableFromInline
    enum Phase {
        case awaitingSubscription
        case subscribed(any Subscription)
        case completing(Subscribers.Completion<Failure>)
        case terminated
    }

    /// `BufferingStrategy` without its closure.
    @usableFromInline
    enum Overflow {
        case dropNewest, dropOldest, customError
    }

    @usableFromInline
    let size: Int
    @usableFromInline
    let keepFull: Bool
    @usableFromInline
    let overflow: Overflow
    @usableFromInline
    var phase = Phase.awaitingSubscription
    @usableFromInline
    var downstream: Downstream?
    @usableFromInline
    var values: [Value] = []
    @usableFromInline
    var head = 0
    @usableFromInline
    var demand = Subscribers.Demand.none
    @usableFromInline
    var draining = false
    @usableFromInline
    var delivered = 0
    /// The `.customError` closure is running (outside the lock).
    @usableFromInline
    var makingError = false
    /// The downstream has its subscription: nothing is drained before (an upstream may send, and
    /// fail, inside the initial request, before the downstream has the subscription).
    @usableFromInline
    var downstreamSubscribed = false
    /// A `.customError` overflow's failure is pending: no drain starts before the downstream's
    /// next request.
    @usableFromInline
    var awaitingRequest = false
    /// The upstream a `.customError` overflow cancelled, kept until the failure goes out: as in
    /// Combine, `.keepFull` asks it for the values the last drain sent.
    @usableFromInline
    var overflowedUpstream: (any Subscription)?

    @inlinable
    init(downstream: Downstream, size: Int, keepFull: Bool, overflow: Overflow) {
        self.downstream = downstream
        self.size = size
        self.keepFull = keepFull
        self.overflow = overflow
    }

    @inlinable
    var count: Int { values.count - head }

    @inlinable
    var buffered: [Value] { Array(values[head...]) }

    /// What to do with a subscription from upstream.
    @usableFromInline
    enum SubscriptionAction {
        /// A second subscription, or one after the end: cancel it.
        case cancel
        /// Ask upstream for `initial`, then hand the subscription to `downstream`.
        case request(Subscribers.Demand, handOverTo: Downstream)
    }

    /// The upstream subscription arrived: the demand to ask upstream for, then the downstream to
    /// hand the subscription to; `.cancel`: cancel it.
    @inlinable
    mutating func subscription(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase, let downstream else { return .cancel }
        phase = .subscribed(subscription)
        return .request(keepFull ? .max(size) : .unlimited, handOverTo: downstream)
    }

    @usableFromInline
    enum ValueAction {
        /// Nothing to do.
        case ignore
        /// Buffered: drain.
        case drain
        /// The buffer is full: make the `.customError` failure (outside the lock).
        case makeError
    }

    @inlinable
    mutating func value(_ value: Value) -> ValueAction {
        precondition(!makingError, "re-entrant send from buffer's customError closure")
        // Values after the upstream's completion are ignored (Combine buffers them after a
        // `.finished`: a documented difference).
        guard case .subscribed = phase else { return .ignore }
        if count < size {
            values.append(value)
            return .drain
        }
        switch overflow {
        case .dropNewest:
            return .ignore
        case .dropOldest:
            // With `size` 0 there is nothing older: the value is dropped.
            guard count > 0 else { return .ignore }
            head += 1
            values.append(value)
            if head > 0 && head * 2 >= values.count {
                values.removeFirst(head)
                head = 0
            }
            return .drain
        case .customError:
            makingError = true
            return .makeError
        }
    }

    /// The `.customError` failure is made: the upstream to cancel. Nothing drains until the
    /// downstream's next request (a drain already running carries on and sends it).
    @inlinable
    mutating func overflowed(_ error: Failure) -> (any Subscription)? {
        makingError = false
        guard case .subscribed(let upstream) = phase else { return nil }
        phase = .completing(.failure(error))
        overflowedUpstream = upstream
        awaitingRequest = true
        return upstream
    }

    /// The upstream completed: whether to drain.
    @inlinable
    mutating func completion(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard case .subscribed = phase else { return false }
        phase = .completing(completion)
        return true
    }

    /// The downstream asked: whether to drain.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Bool {
        guard downstream != nil else { return false }
        self.demand += demand
        awaitingRequest = false
        return true
    }

    /// The downstream has received the subscription: drain what arrived meanwhile.
    @inlinable
    mutating func subscriptionHandedDownstream() {
        downstreamSubscribed = true
    }

    /// Claims the drain; false: one is running and carries on with what changed, the
    /// downstream does not have the subscription yet, or an overflow's failure waits for a
    /// request.
    @inlinable
    mutating func beginDrain() -> Bool {
        guard !draining, downstreamSubscribed, !awaitingRequest else { return false }
        draining = true
        delivered = 0
        return true
    }

    @usableFromInline
    enum DrainStep {
        case send(Downstream, Value)
        /// `discarded`: the buffer's storage, with what a failure leaves in it (and values already
        /// sent that it still holds), to be let go outside the lock. After a `.customError`
        /// overflow, `.keepFull` asks `upstream` (cancelled) for `delivered` more values, as in
        /// Combine; otherwise `delivered` is 0 and `upstream` nil.
        case complete(
            Downstream, Subscribers.Completion<Failure>, discarded: [Value], delivered: Int,
            upstream: (any Subscription)?)
        /// The drain is over; `.keepFull` asks `upstream` for `delivered` more values.
        case stop(delivered: Int, upstream: (any Subscription)?)
    }

    /// The next step of the running drain, after adding the demand the downstream returned for
    /// the value sent last.
    @inlinable
    mutating func drainStep(returned: Subscribers.Demand) -> DrainStep {
        if downstream != nil { demand += returned }
        guard let downstream else { return stop() }
        if count > 0 && demand > 0 {
            let value = values[head]
            head += 1
            if head == values.count {
                values.removeAll(keepingCapacity: true)
                head = 0
            }
            demand -= 1
            delivered += 1
            return .send(downstream, value)
        }
        guard case .completing(let completion) = phase else { return stop() }
        switch completion {
        case .failure:
            break
        case .finished:
            guard count == 0 && demand > 0 else { return stop() }
        }
        phase = .terminated
        self.downstream = nil
        let discarded = values
        values = []
        head = 0
        draining = false
        let upstream = overflowedUpstream
        overflowedUpstream = nil
        guard keepFull, delivered > 0, let upstream else {
            return .complete(downstream, completion, discarded: discarded, delivered: 0, upstream: nil)
        }
        return .complete(downstream, completion, discarded: discarded, delivered: delivered, upstream: upstream)
    }

    @inlinable
    mutating func stop() -> DrainStep {
        draining = false
        guard keepFull, delivered > 0, case .subscribed(let upstream) = phase else {
            return .stop(delivered: 0, upstream: nil)
        }
        return .stop(delivered: delivered, upstream: upstream)
    }

    /// What a cancel does once the lock is released.
    @usableFromInline
    enum CancelAction {
        /// Before the upstream subscription: nothing.
        case none
        /// Cancel `upstream`, if any (after a `.customError` overflow, the upstream it cancelled,
        /// once more, as Combine does); the downstream and the buffered values are let go outside
        /// the lock.
        case cancel(upstream: (any Subscription)?, released: Downstream?, buffered: [Value])
    }

    /// The downstream cancelled: the upstream to cancel; what was held is handed out to be let
    /// go outside the lock.
    @inlinable
    mutating func cancel() -> CancelAction {
        let upstream: (any Subscription)?
        switch phase {
        case .awaitingSubscription: return .none
        case .subscribed(let subscription): upstream = subscription
        case .completing: upstream = overflowedUpstream
        case .terminated: upstream = nil
        }
        phase = .terminated
        defer {
            downstream = nil
            values = []
            head = 0
            overflowedUpstream = nil
        }
        return .cancel(upstream: upstream, released: downstream, buffered: values)
    }
}
