@testable import Streams
import StreamsTesting
import Testing

/// `timeout`, `debounce`, `throttle` and `collect(.byTime)` at the edges: the scheduler calls each
/// makes, in order, and what their subscriptions do with a `cancel()` before the upstream's
/// subscription, zero demand, events out of contract and the demand they ask upstream for.
@Suite struct TimerOperatorsEdgeTests {
    typealias Call = CallRecordingScheduler.Call

    static func ints() -> ManualUpstream<Int, TestError> { ManualUpstream(failure: .oops) { $0 } }

    static func at(_ seconds: Int) -> VirtualTime { VirtualTime(nanoseconds: 0).advanced(by: .seconds(seconds)) }

    static let tolerance = VirtualTime.Stride.nanoseconds(7)

    /// The inner object the upstream was given, as a subscription (to cancel it before it was
    /// handed downstream).
    static func inner(of upstream: ManualUpstream<Int, TestError>) throws -> any Subscription {
        try #require(upstream.subscriber as? any Subscription)
    }

    // MARK: timeout

    static func arming(at seconds: Int, interval: Int = 5, options: String? = "o") -> [Call] {
        [
            .now, .minimumTolerance,
            .scheduleRepeating(at(seconds + interval), interval: .seconds(interval), tolerance: tolerance, options: options),
        ]
    }

    @Test func timeoutArmsARepeatingTimerAtSubscriptionBeforeHandingItDownstream() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.holdsSubscription = true
        upstream.timeout(.seconds(5), scheduler: scheduler, options: "o").subscribe(subscriber)
        #expect(scheduler.calls.isEmpty)
        upstream.sendSubscription()
        #expect(scheduler.calls == Self.arming(at: 0))
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func timeoutRearmsOnTheFirstRequestOnlyAndForwardsEveryRequest() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.timeout(.seconds(5), scheduler: scheduler, options: "o").subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.calls(during: { subscription.request(.none) }) == Self.arming(at: 1))
        #expect(scheduler.scheduledCount == 1, "the first timer was replaced")
        #expect(scheduler.calls(during: { subscription.request(.max(2)) }).isEmpty)
        #expect(upstream.subscriptions.last?.requests == [.none, .max(2)])
        // The wait now ends 5 s after the first request, not after the subscription.
        scheduler.advance(by: .seconds(4))
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completions.count == 1)
    }

    @Test func timeoutDeliversEachValueThroughTheSchedulerAndRequestsTheReturnedDemand() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(3))
        upstream.timeout(.seconds(5), scheduler: scheduler, options: "o").subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        var demand = Subscribers.Demand.max(9)
        let calls = scheduler.calls { demand = upstream.send(1) }
        #expect(demand == .none)
        #expect(calls == Self.arming(at: 2) + [.schedule(options: "o")])
        #expect(subscriber.values.isEmpty)
        scheduler.advance()
        #expect(subscriber.values == [1])
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(3)])
    }

    @Test func timeoutRequestsNothingAfterADeliveryReturningNone() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        #expect(subscriber.values == [1])
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
    }

    @Test func timeoutDeliversTheCompletionThroughTheSchedulerAndStopsTheTimer() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler, options: "o").subscribe(subscriber)
        upstream.send(1)
        let calls = scheduler.calls { upstream.fail() }
        #expect(calls == [.schedule(options: "o")])
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [1], "the value scheduled before the completion goes first")
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func timeoutFiringCancelsUpstreamSendsTheCustomErrorAndDropsWhatFollows() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler, customError: { .oops }).subscribe(subscriber)
        scheduler.advance(by: .seconds(5))
        #expect(upstream.subscriptions.last?.cancels == 1)
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(scheduler.scheduledCount == 0, "the repeating timer is cancelled")
        let calls = scheduler.calls { #expect(upstream.send(1) == .none) }
        upstream.finish()
        scheduler.advance(by: .seconds(5))
        #expect(calls.isEmpty)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.count == 1)
    }

    @Test func timeoutDropsADeliveryScheduledBeforeItFired() {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.zero, scheduler: scheduler).subscribe(subscriber)
        // The re-armed timer is scheduled before the delivery, both due now: the timer wins.
        upstream.send(1)
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func timeoutIgnoresValuesAndCompletionsBeforeItsSubscription() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        let calls = scheduler.calls {
            #expect(upstream.send(1) == .none)
            upstream.finish()
        }
        #expect(calls.isEmpty)
        #expect(subscriber.events.isEmpty)
    }

    @Test func timeoutCancelBeforeItsSubscriptionIsANoOp() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        try Self.inner(of: upstream).cancel()
        let subscription = try #require(upstream.sendSubscription())
        #expect(subscription.cancels == 0)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscription.requests == [.unlimited])
        upstream.send(4)
        scheduler.advance()
        #expect(subscriber.values == [4])
    }

    @Test func timeoutCancelStopsTheTimerAndTheUpstream() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        let manual = try #require(upstream.subscriptions.last)
        subscriber.cancel()
        #expect(manual.cancels == 1)
        #expect(scheduler.scheduledCount == 0)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.completions.isEmpty)
    }

    /// As in Combine, the upstream's completion does not end the subscription at once: until its
    /// scheduled delivery runs, a `cancel()` still cancels the upstream's subscription (although
    /// that upstream has completed), and the completion is then never delivered.
    @Test func timeoutCancelBeforeTheScheduledCompletionRunsCancelsTheUpstreamAndDropsIt() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler, options: "o").subscribe(subscriber)
        let manual = try #require(upstream.subscriptions.last)
        #expect(scheduler.calls(during: { upstream.finish() }) == [.schedule(options: "o")])
        #expect(manual.cancels == 0)
        subscriber.cancel()
        #expect(manual.cancels == 1)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.completions.isEmpty)
        #expect(scheduler.scheduledCount == 0)
        subscriber.cancel()
        #expect(manual.cancels == 1, "a second cancel changes nothing")
    }

    /// Once the scheduled completion has been delivered, a `cancel()` changes nothing.
    @Test func timeoutCancelAfterTheCompletionWasDeliveredIsANoOp() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        let manual = try #require(upstream.subscriptions.last)
        upstream.fail()
        scheduler.advance()
        #expect(subscriber.completions == [.failure(.oops)])
        subscriber.cancel()
        #expect(manual.cancels == 0)
    }

    /// A subscriber that keeps nothing: only the pipeline keeps it alive.
    final class PlainSubscriber: Subscriber, @unchecked Sendable {
        let events = Locked<[String]>([])
        func receive(subscription: any Subscription) { subscription.request(.unlimited) }
        func receive(_ input: Int) -> Subscribers.Demand {
            events.withLock { $0.append("\(input)") }
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { events.withLock { $0.append("\(completion)") } }
    }

    @Test func timeoutsScheduledDeliveriesKeepThePipelineAliveUntilTheyRun() {
        let scheduler = TestScheduler()
        weak var weakSubscriber: PlainSubscriber?
        do {
            let subscriber = PlainSubscriber()
            weakSubscriber = subscriber
            Just(1).timeout(.seconds(5), scheduler: scheduler).subscribe(subscriber)
        }
        #expect(weakSubscriber != nil)
        let seen = weakSubscriber?.events
        scheduler.advance()
        #expect(seen?.withLock { $0 } == ["1", "finished"])
        #expect(weakSubscriber == nil, "released once the deliveries have run")
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func timeoutOnImmediateSchedulerTrapsWithAMessage() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).timeout(.seconds(1), scheduler: ImmediateScheduler.shared).sink { _ in }
        }
        MisuseTests.expectMessage("timeout cannot be used with ImmediateScheduler", in: trap)
    }

    /// collect(.byTime) behaves like Combine's other time operators here: the late subscription is
    /// kept, and the downstream's request reaches it.
    @Test func collectByTimeCancelBeforeTheSubscriptionIsANoOp() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<[Int], TestError>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        try Self.inner(of: upstream).cancel()
        let subscription = try #require(upstream.sendSubscription())
        #expect(subscription.cancels == 0)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscription.requests == [.max(1)])
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1]])
    }

    // MARK: debounce

    @Test func debounceArmsARepeatingTimerPerValueAndSchedulesTheCompletionWithoutOptions() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.debounce(for: .seconds(2), scheduler: scheduler, options: "o").subscribe(subscriber)
        #expect(scheduler.calls.isEmpty)
        scheduler.advance(by: .seconds(1))
        let calls = scheduler.calls { #expect(upstream.send(1) == .none) }
        #expect(
            calls == [
                .now, .minimumTolerance,
                .scheduleRepeating(Self.at(3), interval: .seconds(2), tolerance: Self.tolerance, options: "o"),
            ])
        upstream.send(2)
        #expect(scheduler.scheduledCount == 1, "the previous timer is cancelled")
        #expect(scheduler.calls(during: { upstream.finish() }) == [.schedule(options: nil)])
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.isEmpty, "the pending value is dropped")
        #expect(subscriber.completions == [.finished])
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func debounceHandsItselfDownstreamBeforeRequestingUnlimited() throws {
        let upstream = Self.ints()
        let requestsSeen = Locked<[Subscribers.Demand]?>(nil)
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { _ in requestsSeen.withLock { $0 = upstream.subscriptions.last?.requests } },
            receiveValue: { _ in .none }, receiveCompletion: { _ in })
        upstream.debounce(for: .seconds(1), scheduler: TestScheduler()).subscribe(subscriber)
        #expect(requestsSeen.withLock { $0 } == [])
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
    }

    @Test func debounceDropsADueValueWithoutDemandAndCancelsItsTimer() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.scheduledCount == 0)
        subscription.request(.max(1))
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.isEmpty)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
        #expect(scheduler.scheduledCount == 0, "the repeating timer fires once")
    }

    @Test func debounceMirrorShowsDemandAndTheCurrentValue() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        upstream.send(7)
        let children = Mirror(reflecting: subscription).children.map { ($0.label, "\($0.value)") }
        #expect(children.map(\.0) == ["downstream", "downstreamDemand", "currentValue"])
        #expect(children[1].1 == "\(Subscribers.Demand.max(3))")
        #expect(children[2].1 == "Optional(7)")
    }

    @Test func debounceCancelBeforeItsSubscriptionIsANoOp() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(scheduler.scheduledCount == 0, "a value before the subscription is ignored")
        try Self.inner(of: upstream).cancel()
        let subscription = try #require(upstream.sendSubscription())
        #expect(subscription.cancels == 0)
        #expect(subscription.requests == [.unlimited])
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
    }

    // MARK: throttle

    @Test func throttleReadsTheClockAndSchedulesAsCombineDoes() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(2), scheduler: scheduler, latest: true).subscribe(subscriber)
        #expect(scheduler.calls == [.now], "when made")
        #expect(scheduler.calls(during: { upstream.sendSubscription() }) == [.now])
        #expect(scheduler.calls(during: { upstream.send(1) }) == [.now, .schedule(options: nil)])
        #expect(scheduler.calls(during: { scheduler.advance(by: .seconds(1)) }) == [.now], "the emission's time")
        #expect(subscriber.values == [1])
        let later = scheduler.calls { upstream.send(2) }
        #expect(later == [.now, .minimumTolerance, .scheduleAfter(Self.at(2), tolerance: Self.tolerance, options: nil)])
        #expect(scheduler.calls(during: { upstream.send(3) }) == [.now], "pending: replaced, nothing scheduled")
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 3])
        #expect(scheduler.calls(during: { upstream.finish() }) == [.now, .schedule(options: nil)])
        scheduler.advance()
        #expect(subscriber.completions == [.finished])
    }

    @Test func throttleRequestsUnlimitedBeforeHandingItsSubscriptionDownstream() {
        let upstream = Self.ints()
        let requestsSeen = Locked<[Subscribers.Demand]?>(nil)
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { _ in requestsSeen.withLock { $0 = upstream.subscriptions.last?.requests } },
            receiveValue: { _ in .none }, receiveCompletion: { _ in })
        upstream.throttle(for: .seconds(1), scheduler: TestScheduler(), latest: false).subscribe(subscriber)
        #expect(requestsSeen.withLock { $0 } == [.unlimited])
    }

    /// As in Combine, a cancel before the upstream subscription ends the operator: the late
    /// subscription is cancelled, asked for nothing and not handed downstream, and the clock is
    /// not read for it.
    @Test func throttleCancelBeforeTheSubscriptionCancelsTheLateSubscription() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        try Self.inner(of: upstream).cancel()
        let calls = scheduler.calls {
            let subscription = upstream.sendSubscription()
            #expect(subscription?.cancels == 1)
            #expect(subscription?.requests == [])
            upstream.send(1)
            upstream.finish()
        }
        #expect(calls == [])
        #expect(subscriber.subscriptionCount == 0)
        #expect(subscriber.events.isEmpty)
    }

    /// The cancel before the subscription lets the subscriber go at once.
    @Test func throttleCancelBeforeTheSubscriptionReleasesTheSubscriber() throws {
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        weak var released: TestSubscriber<Int, TestError>?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            released = subscriber
            upstream.throttle(for: .seconds(1), scheduler: TestScheduler(), latest: true).subscribe(subscriber)
        }
        #expect(released != nil, "the operator holds its subscriber")
        try Self.inner(of: upstream).cancel()
        #expect(released == nil)
    }

    /// Combine reads the clock only while subscribed: nothing for a value or a completion before
    /// the subscription, nor for a second subscription.
    @Test func throttleReadsNoClockBeforeTheSubscriptionOrForASecondOne() throws {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        scheduler.clearCalls()
        #expect(upstream.send(1) == .none)
        #expect(scheduler.calls == [])
        upstream.sendSubscription()
        #expect(scheduler.calls == [.now])
        let second = scheduler.calls { #expect(upstream.sendSecondSubscription().cancels == 1) }
        #expect(second == [])
        #expect(subscriber.values.isEmpty)
    }

    /// After the first completion nothing reads the clock: later values and completions are
    /// ignored, and the emission that carries the value and the completion records no time.
    @Test func throttleReadsNoClockAfterTheFirstCompletion() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(2), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        #expect(scheduler.calls(during: { upstream.fail() }) == [.now], "the first completion")
        let afterwards = scheduler.calls {
            upstream.finish()
            #expect(upstream.send(3) == .none)
        }
        #expect(afterwards == [])
        #expect(scheduler.calls(during: { scheduler.advance(by: .seconds(2)) }) == [], "value and completion")
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    /// After `cancel()` nothing reads the clock: not an emission scheduled before it, nor a
    /// value, a completion or a request that follows.
    @Test func throttleReadsNoClockAfterACancel() {
        let scheduler = CallRecordingScheduler()
        let upstream = Self.ints()
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        let afterwards = scheduler.calls {
            subscriber.cancel()
            subscriber.request(.max(3))
            #expect(upstream.send(2) == .none)
            upstream.finish()
            scheduler.advance(by: .seconds(5))
        }
        #expect(afterwards == [])
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.isEmpty)
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func throttleDropsAValueWithoutDemandAndIgnoresZeroRequests() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        upstream.send(1)
        #expect(scheduler.scheduledCount == 0, "nothing scheduled for a value without demand")
        subscription.request(.max(1))
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values.isEmpty)
        upstream.send(2)
        scheduler.advance()
        #expect(subscriber.values == [2])
    }

    @Test(arguments: [true, false])
    func throttleKeepsTheLatestOrTheFirstPendingValue(_ latest: Bool) {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        upstream.send(3)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.values == [1, latest ? 3 : 2])
    }

    @Test func throttleQueuesTheCompletionBehindAPendingValue() {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        upstream.fail()
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.completions.isEmpty)
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(scheduler.scheduledCount == 0)
    }

    // MARK: collect(.byTime)

    /// Combine asks upstream for one value when subscribed, one more per downstream request,
    /// `.none` included, and returns one more per value.
    @Test(arguments: [false, true])
    func collectByTimeAsksUpstreamForOneValueAtATime(_ byCount: Bool) throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: nil)
        let strategy: Publishers.TimeGroupingStrategy<TestScheduler> =
            byCount ? .byTimeOrCount(scheduler, .seconds(1), 2) : .byTime(scheduler, .seconds(1))
        upstream.collect(strategy).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let manual = try #require(upstream.subscriptions.last)
        #expect(manual.requests == [.max(1)], "one when subscribed, before the downstream asks")
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        subscription.request(.max(5))
        subscription.request(.none)
        #expect(manual.requests == [.max(1), .max(1), .max(1)])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2]])
    }

    /// A request made while the subscription is handed down only adds demand: upstream is asked
    /// for one value when subscribed, not once more for it. The demand the downstream returns for
    /// a group asks upstream for nothing.
    @Test func collectByTimeCountsTheRequestMadeAtSubscriptionOnce() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        let manual = try #require(upstream.subscriptions.last)
        #expect(manual.requests == [.max(1)])
        var returned: [Subscribers.Demand] = []
        for value in 0..<10 {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            returned.append(upstream.send(value))
        }
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]])
        #expect(returned == Array(repeating: .max(1), count: 10))
        #expect(manual.requests == [.max(1)], "groups' returned demand asks upstream for nothing")
        subscriber.request(.max(2))
        #expect(manual.requests == [.max(1), .max(1)])
    }

    @Test func collectByTimeSendsGroupsOnlyWhileTheDownstreamHasDemand() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .max(1))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1]])
        upstream.send(3)
        try #require(subscriber.subscription).request(.max(1))
        scheduler.advance()
        #expect(subscriber.values == [[1], [2, 3]])
    }
}
