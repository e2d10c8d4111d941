/// The subscription behind `merge`, `combineLatest` and `zip`, for any number of upstreams
/// with one failure type.
///
/// Its state is one ``FanInStateMachine`` (with the ``UpstreamTable`` of the upstreams), kept
/// in the locked state of the ``Outlet`` through which outputs reach the downstream serially, so that
/// making a `combineLatest` or `zip` tuple and claiming its turn to deliver take one lock. The
/// machine's actions run outside the lock.
///
/// - `merge` hands its subscription downstream before subscribing to the upstreams; values go
///   straight to the outlet; the downstream's demand is asked of every upstream; it finishes
///   when all have finished.
/// - `combineLatest` likewise, but keeps each upstream's latest value (values are type-erased
///   and `combine` builds the tuple); a tuple with no demand for it is dropped.
/// - `zip` hands its subscription downstream once every upstream has its own, pairs queued
///   values in order, and returns the downstream's demand for a tuple from the `receive(_:)`
///   of the upstream whose value completed it (asking the others with `request`). It finishes
///   when an upstream has finished with no value left to pair.
///
/// The first failure cancels the other upstreams and goes downstream.
///
/// Unchecked `Sendable`: `combine` is a closure that is not `Sendable`, and `outlet` is written
/// once, in `init`, before the subscription is shared.
@usableFromInline
package final class FanInSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    package let name: String
    @usableFromInline
    package let mode: FanInStateMachine.Mode
    /// Builds a tuple from the values of the upstreams in order; nil for `merge`.
    @usableFromInline
    package let combine: (([Any]) -> Downstream.Input)?
    /// A collection's `combineLatest`: keeps upstream `index`'s latest value itself, typed, so
    /// that a value sets one slot instead of the table's type-erased one, and `combine` hands
    /// on the array it keeps instead of casting every value back (``LatestValues``). Called
    /// under the outlet's lock; returns the value replaced, to be let go after it. Nil for the
    /// other operators.
    @usableFromInline
    package let keep: ((Any, Int) -> Any?)?
    /// Whether `keep` is set.
    @usableFromInline
    package let keepsValues: Bool
    /// Holds the ``FanInStateMachine`` under its lock. A `var` only because its `onDemand`
    /// captures `self`: written once, in `init`, and only read afterwards.
    @usableFromInline
    @exclusivity(unchecked)
    package var outlet: Outlet<Downstream>!

    @inlinable
    package init(
        name: String, mode: FanInStateMachine.Mode, count: Int, downstream: Downstream,
        combine: (([Any]) -> Downstream.Input)?, keep: ((Any, Int) -> Any?)? = nil
    ) {
        self.name = name
        self.mode = mode
        self.combine = combine
        self.keep = keep
        keepsValues = keep != nil
        outlet = Outlet(
            downstream: downstream, fanIn: FanInStateMachine(mode: mode, count: count, keepsLatest: keep == nil),
            onDemand: { [unowned self] in self.forward($0) })
    }

    /// Subscribes to the upstreams with `subscribeAll`; `merge` and `combineLatest` hand the
    /// subscription downstream first, `zip` when the last upstream subscription arrives.
    @inlinable
    @inline(never)
    package func start(_ subscribeAll: (FanInSubscription) -> Void) {
        guard mode != .zip else { return subscribeAll(self) }
        handOver()
        if outlet.state.withLock({ $0.fanIn.startedEmpty() }) {
            outlet.complete(.finished)
        } else {
            subscribeAll(self)
        }
    }

    /// Hands this subscription to the downstream.
    @inlinable
    @inline(never)
    package func handOver() {
        guard let downstream = outlet.state.withLock({ $0.downstream }) else { return }
        downstream.receive(subscription: self)
    }

    /// Subscribes to `publisher` as upstream number `index` of a `merge`.
    @inlinable
    package func attachMerged<P: Publisher>(_ publisher: P, at index: Int)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        publisher.receive(subscriber: MergeLink(parent: self, index: index))
    }

    /// Subscribes to `publisher` as upstream number `index` of a `combineLatest` or `zip`.
    @inlinable
    package func attach<P: Publisher>(_ publisher: P, at index: Int) where P.Failure == Downstream.Failure {
        publisher.receive(subscriber: Link<P.Output>(parent: self, index: index))
    }

    @inlinable
    @inline(never)
    package func receive(subscription: any Subscription, at index: Int) {
        switch outlet.state.withLock({ $0.fanIn.receivedSubscription(subscription, at: index) }) {
        case .cancel:
            subscription.cancel()
        case .request(let demand):
            if demand > 0 { subscription.request(demand) }
        case .handOver:
            handOver()
        }
    }

    /// `combineLatest`: records `value` and sends the tuple it completes. Recording, making the
    /// tuple and claiming the turn to deliver it are one step under the outlet's lock, so that
    /// tuples reach the downstream in the order they were made: an older combination is never
    /// delivered after a newer one.
    @inlinable
    package func receiveLatest(_ value: consuming Any, at index: Int) {
        // Recording swaps the value in: the one it replaces comes back in `slot` and dies here,
        // after the lock (its deinit may call back in).
        var slot = value
        outlet.send(dropWithoutDemand: true) { fanIn in
            fanIn.receivedLatest(&slot, at: index).map(combine!)
        }
        withExtendedLifetime(slot) {}
    }

    /// A collection's `combineLatest`: `keep`s `value` and sends the array it completes, in the
    /// same step under the outlet's lock as ``receiveLatest(_:at:)``. Specialised but never
    /// inlined, so that the fixed-arity path's code stays as it was (inlined, this branch made
    /// every `combineLatest` value dearer).
    @inlinable
    @inline(never)
    package func receiveKept(_ value: Any, at index: Int) {
        // The value this one replaces dies here, after the lock (its deinit may call back in).
        var replaced: Any?
        outlet.send(dropWithoutDemand: true) { fanIn in
            switch fanIn.receivedKept(at: index) {
            case .ignore:
                return nil
            case .keep:
                replaced = keep.unsafelyUnwrapped(value, index)
                return nil
            case .keepAndCombine:
                replaced = keep.unsafelyUnwrapped(value, index)
                return combine!([])
            }
        }
        withExtendedLifetime(replaced) {}
    }

    /// `zip`: queues `value` and sends the tuple it completes; returns the downstream's demand
    /// for that tuple if this call delivered it.
    @inlinable
    package func receiveZipped(_ value: Any, at index: Int) -> Subscribers.Demand {
        let thread = ThreadIdentity.current
        var opensDelivery = false
        var finish: FanInStateMachine.Termination?
        let returned = outlet.send(returningDemand: true) { fanIn -> Downstream.Input? in
            let step = fanIn.receivedZipped(value, at: index, thread: thread)
            opensDelivery = step.opensDelivery
            finish = step.finish
            return step.tuple.map(combine!)
        }
        var demand = Subscribers.Demand.none
        if opensDelivery {
            let replenish = outlet.state.withLock { $0.fanIn.deliveredZipped(returned) }
            request(replenish.demand, from: replenish.rows, except: replenish.except)
            demand = replenish.returned
        } else if let returned, returned > 0 {
            // Delivered while another thread's delivery was still open (it let the turn go but
            // has not closed it yet): ask every upstream, as for any request.
            forward(returned)
        }
        if let finish {
            for upstream in finish.cancel { upstream.cancel() }
            outlet.complete(.finished)
        }
        return demand
    }

    @inlinable
    @inline(never)
    package func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        let failed = if case .failure = completion { true } else { false }
        let action = outlet.state.withLock { $0.fanIn.receivedCompletion(at: index, failed: failed) }
        guard case let .complete(handOver, ending) = action else { return }
        for other in ending.cancel { other.cancel() }
        if handOver { self.handOver() }
        outlet.complete(completion)
    }

    @inlinable
    @inline(never)
    package func request(_ demand: Subscribers.Demand) {
        // As in Combine, `zip` traps on `.none`; `merge` and `combineLatest` accept it, and it
        // changes nothing: it is not passed on to upstreams that may trap on it.
        precondition(demand > 0 || mode != .zip, "API Violation: demand must not be zero")
        guard demand > 0 else { return }
        outlet.request(demand)
        forward(demand)
    }

    /// Asks the upstreams for `demand` more: the downstream asked for it, by request or by what
    /// it returned from `receive(_:)`. While this thread delivers a `zip` tuple, the upstream
    /// that completed it is left out: its `receive(_:)` returns the demand.
    @inlinable
    @inline(never)
    package func forward(_ demand: Subscribers.Demand) {
        let thread = mode == .zip ? ThreadIdentity.current : ThreadIdentity.none
        guard case .ask(let rows, let except) = outlet.state.withLock({ $0.fanIn.downstreamRequested(demand, on: thread) })
        else { return }
        request(demand, from: rows, except: except)
    }

    /// Asks every live upstream in `rows` but number `except` for `demand`.
    @inlinable
    @inline(never)
    package func request(_ demand: Subscribers.Demand, from rows: [UpstreamTable.Row], except: Int) {
        guard demand > 0 else { return }
        for index in rows.indices where index != except {
            if case .live(let upstream) = rows[index] { upstream.request(demand) }
        }
    }

    @inlinable
    @inline(never)
    package func cancel() {
        let ending = outlet.state.withLock { $0.fanIn.cancelled() }
        outlet.cancel()
        for upstream in ending?.cancel ?? [] { upstream.cancel() }
    }

    @usableFromInline
    package var description: String { name }

    @usableFromInline
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    package var playgroundDescription: Any { description }

    /// Subscribes to one upstream of a `merge`; describes itself as the merge does.
    @usableFromInline
    package struct MergeLink: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        package let parent: FanInSubscription
        @usableFromInline
        package let index: Int
        @usableFromInline
        package let combineIdentifier = CombineIdentifier()

        @inlinable
        package init(parent: FanInSubscription, index: Int) {
            self.parent = parent
            self.index = index
        }

        @inlinable
        package func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        package func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            parent.outlet.send(input)
            return .none
        }

        @inlinable
        package func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            parent.receive(completion: completion, at: index)
        }

        @usableFromInline
        package var description: String { parent.name }

        @usableFromInline
        package var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        package var playgroundDescription: Any { description }
    }

    /// Subscribes to one upstream of a `combineLatest` or `zip`; describes itself as the
    /// operator does.
    @usableFromInline
    package struct Link<Input>: Subscriber, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
        @usableFromInline
        package typealias Failure = Downstream.Failure

        @usableFromInline
        package let parent: FanInSubscription
        @usableFromInline
        package let index: Int
        @usableFromInline
        package let combineIdentifier = CombineIdentifier()

        @inlinable
        package init(parent: FanInSubscription, index: Int) {
            self.parent = parent
            self.index = index
        }

        @inlinable
        package func receive(subscription: any Subscription) {
            parent.receive(subscription: subscription, at: index)
        }

        @inlinable
        package func receive(_ input: Input) -> Subscribers.Demand {
            if parent.mode == .zip { return parent.receiveZipped(input, at: index) }
            if parent.keepsValues {
                parent.receiveKept(input, at: index)
            } else {
                parent.receiveLatest(input, at: index)
            }
            return .none
        }

        @inlinable
        package func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            parent.receive(completion: completion, at: index)
        }

        @usableFromInline
        package var description: String { parent.name }

        @usableFromInline
        package var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        package var playgroundDescription: Any { description }
    }
}
