/// The state of a ``FanInSubscription`` (`merge`, `combineLatest`, `zip`): a value with no lock
/// and no callouts. Each event method updates it and returns what the subscription must do
/// once the lock is released.
///
/// Phases, and the events that move between them:
/// - `awaitingSubscription` (`zip` only; the others start `subscribed`, their downstream having the
///   subscription before the upstreams are subscribed): the upstreams' subscriptions arrive;
///   the last one → `subscribed`, handing the subscription downstream. A completion that ends the
///   operator here hands it downstream early, then completes → `terminated`.
/// - `subscribed`: values are combined; requests go upstream. The first failure, the last
///   `.finished` (`merge`, `combineLatest`) or a `.finished` upstream with no value left to pair
///   (`zip`) → `terminated`, as does `cancel`.
/// - `terminated`: the upstreams and values have been let go; every event is ignored and a
///   late subscription cancelled.
///
/// `merge`'s values do not pass through the machine: they go straight to the outlet.
@usableFromInline
package struct FanInStateMachine {
    /// Which operator the machine runs.
    @usableFromInline
    package enum Mode: Equatable, Sendable {
        case merge
        /// `combineLatest`.
        case latest
        case zip
    }

    @usableFromInline
    package enum Phase {
        /// `zip`: waiting for every upstream's subscription before handing ours downstream.
        case awaitingSubscription(UpstreamTable)
        /// The downstream has the subscription.
        case subscribed(UpstreamTable)
        /// Finished, failed or cancelled.
        case terminated
        /// Only inside an event, while its table is taken out to be changed in place.
        case modifying
    }

    /// `zip`: a tuple that upstream `index` completed, being delivered on `thread`. What the
    /// downstream requests meanwhile on that thread is asked of the other upstreams at once and
    /// returned from upstream `index`'s `receive(_:)` with the demand the downstream returns.
    @usableFromInline
    package struct Delivery {
        @usableFromInline
        package let index: Int
        @usableFromInline
        package let thread: Int
        @usableFromInline
        package var requested = Subscribers.Demand.none

        @inlinable
        package init(index: Int, thread: Int) {
            self.index = index
            self.thread = thread
        }
    }

    @usableFromInline
    package let mode: Mode
    @usableFromInline
    package var phase: Phase
    /// All the downstream has asked for, for upstreams whose subscription arrives late.
    @usableFromInline
    package var requested = Subscribers.Demand.none
    @usableFromInline
    package var delivery: Delivery?

    /// A machine for `count` upstreams; `keepsLatest` false when the operator keeps
    /// `combineLatest`'s values itself.
    @inlinable
    package init(mode: Mode, count: Int, keepsLatest: Bool = true) {
        self.mode = mode
        let table = UpstreamTable(count: count, mode: mode, keepsLatest: keepsLatest)
        phase = mode == .zip ? .awaitingSubscription(table) : .subscribed(table)
    }

    @inlinable
    package static func inconsistent(_ event: String) -> Never {
        preconditionFailure("FanInStateMachine: internal inconsistency: \(event) while modifying")
    }

    /// What ending hands out of the lock: the live upstream subscriptions to cancel, and the
    /// table itself, so that the values it holds (`combineLatest`'s latest, `zip`'s queues) are
    /// let go after the lock, not under it (their deinit may call back in).
    @usableFromInline
    package struct Termination {
        @usableFromInline
        package let cancel: [any Subscription]
        @usableFromInline
        package let released: UpstreamTable

        @inlinable
        package init(_ table: UpstreamTable) {
            cancel = table.liveSubscriptions
            released = table
        }
    }

    /// Moves to `terminated`: the live upstream subscriptions to cancel, with the table.
    @inlinable
    package mutating func terminate(_ table: UpstreamTable) -> Termination {
        phase = .terminated
        return Termination(table)
    }

    // MARK: Events

    /// `merge` of no upstreams has handed its subscription downstream: true if it must finish.
    @inlinable
    package mutating func startedEmpty() -> Bool {
        guard case .subscribed(let table) = phase, table.count == 0 else { return false }
        phase = .terminated
        return true
    }

    @usableFromInline
    package enum SubscriptionAction {
        case cancel
        /// Ask the upstream for `demand` (nothing if `.none`).
        case request(Subscribers.Demand)
        /// Every upstream has its subscription: hand ours downstream.
        case handOver
    }

    /// The subscription of upstream `index` arrived.
    @inlinable
    package mutating func receivedSubscription(_ subscription: any Subscription, at index: Int) -> SubscriptionAction {
        switch phase {
        case .awaitingSubscription(var table):
            phase = .modifying
            let attached = table.attach(subscription, at: index)
            if attached, table.awaitingCount == 0 {
                phase = .subscribed(table)
                return .handOver
            }
            phase = .awaitingSubscription(table)
            return attached ? .request(.none) : .cancel
        case .subscribed(var table):
            phase = .modifying
            let attached = table.attach(subscription, at: index)
            phase = .subscribed(table)
            return attached ? .request(requested) : .cancel
        case .terminated:
            return .cancel
        case .modifying:
            Self.inconsistent("a subscription arrived")
        }
    }

    /// `combineLatest`: upstream `index` sent `value`. The latest values, once every upstream
    /// has sent one, to build the output from; nil for no output. `value` is left holding the
    /// value it replaces, for the caller to let go once it has left the lock.
    @inlinable
    package mutating func receivedLatest(_ value: inout Any, at index: Int) -> [Any]? {
        switch phase {
        case .subscribed(var table):
            phase = .modifying
            let latest = table.recordLatest(&value, at: index) ? table.latest : nil
            phase = .subscribed(table)
            return latest
        case .awaitingSubscription, .terminated:
            return nil
        case .modifying:
            Self.inconsistent("a value arrived")
        }
    }

    /// What becomes of a value of a collection's `combineLatest`, whose operator keeps the
    /// values itself (``LatestValues``).
    @usableFromInline
    package enum KeptValueAction {
        /// The operator has ended: drop the value.
        case ignore
        /// Keep it; some upstream has not sent a value yet.
        case keep
        /// Keep it, then send the combined values: every upstream has sent one.
        case keepAndCombine
    }

    /// A collection's `combineLatest`: upstream `index` sent a value that the operator keeps.
    @inlinable
    package mutating func receivedKept(at index: Int) -> KeptValueAction {
        switch phase {
        case .subscribed(var table):
            phase = .modifying
            let complete = table.recordPresence(at: index)
            phase = .subscribed(table)
            return complete ? .keepAndCombine : .keep
        case .awaitingSubscription, .terminated:
            return .ignore
        case .modifying:
            Self.inconsistent("a value arrived")
        }
    }

    /// What a `zip` value leads to.
    @usableFromInline
    package struct ZipStep {
        /// The values of the tuple this value completed.
        @usableFromInline
        package var tuple: [Any]?
        /// Whether this value's thread now delivers a tuple: report with ``deliveredZipped(_:)``.
        @usableFromInline
        package var opensDelivery = false
        /// No tuple can follow: finish, cancelling these.
        @usableFromInline
        package var finish: Termination?

        @inlinable
        package init() {}
    }

    /// `zip`: upstream `index` sent `value` on `thread`.
    @inlinable
    package mutating func receivedZipped(_ value: Any, at index: Int, thread: Int) -> ZipStep {
        var step = ZipStep()
        switch phase {
        case .subscribed(var table):
            phase = .modifying
            step.tuple = table.enqueue(value, at: index)
            guard step.tuple != nil else {
                phase = .subscribed(table)
                return step
            }
            if delivery == nil {
                delivery = Delivery(index: index, thread: thread)
                step.opensDelivery = true
            }
            if table.zipExhausted {
                step.finish = terminate(table)
            } else {
                phase = .subscribed(table)
            }
            return step
        case .awaitingSubscription, .terminated:
            // Before the downstream has the subscription no value was requested.
            return step
        case .modifying:
            Self.inconsistent("a value arrived")
        }
    }

    /// What follows a delivered `zip` tuple.
    @usableFromInline
    package struct Replenish {
        /// What the completing upstream's `receive(_:)` returns.
        @usableFromInline
        package let returned: Subscribers.Demand
        /// Ask every live upstream in `rows` but `except` for `demand`.
        @usableFromInline
        package let rows: [UpstreamTable.Row]
        @usableFromInline
        package let except: Int
        @usableFromInline
        package let demand: Subscribers.Demand

        @inlinable
        package init(
            returned: Subscribers.Demand, rows: [UpstreamTable.Row] = [], except: Int = -1, demand: Subscribers.Demand = .none
        ) {
            self.returned = returned
            self.rows = rows
            self.except = except
            self.demand = demand
        }
    }

    /// `zip`: the delivery that ``receivedZipped(_:at:thread:)`` opened is over; `returned` is
    /// the demand the downstream returned for the tuple, nil if this thread did not deliver it
    /// (it waits in the outlet).
    @inlinable
    package mutating func deliveredZipped(_ returned: Subscribers.Demand?) -> Replenish {
        guard let delivery else { Self.inconsistent("a zip delivery ended that never began") }
        self.delivery = nil
        guard case .subscribed(let table) = phase else { return Replenish(returned: .none) }
        let demand = returned ?? .none
        requested += demand
        return Replenish(
            returned: demand + delivery.requested, rows: demand > 0 ? table.rows : [], except: delivery.index,
            demand: demand)
    }

    @usableFromInline
    package enum CompletionAction {
        case ignore
        /// Send the completion downstream, after the subscription if `handOver`; cancel the
        /// ending's upstreams.
        case complete(handOver: Bool, ending: Termination)
    }

    /// Upstream `index` completed; `failed` for a failure.
    @inlinable
    package mutating func receivedCompletion(at index: Int, failed: Bool) -> CompletionAction {
        let handOver: Bool
        var table: UpstreamTable
        switch phase {
        case .awaitingSubscription(let rows):
            handOver = true
            table = rows
        case .subscribed(let rows):
            handOver = false
            table = rows
        case .terminated:
            return .ignore
        case .modifying:
            Self.inconsistent("a completion arrived")
        }
        if failed { return .complete(handOver: handOver, ending: terminate(table)) }
        phase = .modifying
        guard table.finish(at: index) else {
            phase = handOver ? .awaitingSubscription(table) : .subscribed(table)
            return .ignore
        }
        let done =
            switch mode {
            case .merge, .latest: table.finishedCount == table.count
            case .zip: table.queues[index].isEmpty
            }
        if done { return .complete(handOver: handOver, ending: terminate(table)) }
        phase = handOver ? .awaitingSubscription(table) : .subscribed(table)
        return .ignore
    }

    /// What the subscription does with a downstream request.
    @usableFromInline
    package enum RequestAction {
        /// Ask every live upstream in `rows` but number `except` (-1: none) for the demand.
        case ask(rows: [UpstreamTable.Row], except: Int)
        /// Nothing to ask.
        case none
    }

    /// The downstream asked for `demand` on `thread`.
    @inlinable
    package mutating func downstreamRequested(_ demand: Subscribers.Demand, on thread: Int) -> RequestAction {
        switch phase {
        case .subscribed(let table):
            requested += demand
            if let delivery, delivery.thread == thread {
                self.delivery!.requested += demand
                return .ask(rows: table.rows, except: delivery.index)
            }
            return .ask(rows: table.rows, except: -1)
        case .awaitingSubscription, .terminated:
            return .none
        case .modifying:
            Self.inconsistent("a request arrived")
        }
    }

    /// The downstream cancelled: the live upstream subscriptions to cancel (with the table), nil
    /// if already terminated.
    @inlinable
    package mutating func cancelled() -> Termination? {
        switch phase {
        case .awaitingSubscription(let table), .subscribed(let table):
            return terminate(table)
        case .terminated:
            return nil
        case .modifying:
            Self.inconsistent("a cancel arrived")
        }
    }
}
