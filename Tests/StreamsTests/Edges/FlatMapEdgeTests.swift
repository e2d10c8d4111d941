@testable import Streams
import StreamsTesting
import Testing

/// `flatMap` at the edges: Combine's demand accounting, ordering and endings.
@Suite("flatMap at the edges")
struct FlatMapEdgeTests {
    /// An outer subject of child probes, flat-mapped into `subscriber`.
    struct Rig {
        let outer = PassthroughSubject<ChildProbe, TestError>()
        let subscriber: TestSubscriber<Int, TestError>

        init(maxPublishers: Subscribers.Demand = .unlimited, subscriber: TestSubscriber<Int, TestError>) {
            self.subscriber = subscriber
            outer.flatMap(maxPublishers: maxPublishers) { $0 }.subscribe(subscriber)
        }

        @discardableResult
        func child(_ name: String = "child", log: Log<String>? = nil) -> ChildProbe {
            let child = ChildProbe(name, log: log)
            outer.send(child)
            return child
        }
    }

    @Test func theDownstreamHasTheSubscriptionBeforeTheUpstreamIsSubscribed() throws {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        var subscriptionsWhenSubscribing: Int?
        Deferred { () -> ManualUpstream<Int, TestError> in
            subscriptionsWhenSubscribing = subscriber.subscriptionCount
            return upstream
        }
        .flatMap(maxPublishers: .max(2)) { Just($0).setFailureType(to: TestError.self) }
        .subscribe(subscriber)
        #expect(subscriptionsWhenSubscribing == 1)
        #expect(upstream.subscriptions.map(\.requests) == [[.max(2)]])
        // The upstream sees the downstream's subscription object, by its combineIdentifier.
        let subscription = try #require(subscriber.subscription)
        let outer = try #require(upstream.subscriber as? any CustomCombineIdentifierConvertible)
        #expect(outer.combineIdentifier == subscription.combineIdentifier)
    }

    @Test func describesItselfWithAnEmptyMirror() throws {
        let subscriber = TestSubscriber<Int, TestError>()
        Rig(subscriber: subscriber).child()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "FlatMap")
        #expect(Mirror(reflecting: subscription).children.isEmpty)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "FlatMap")
        #expect(!(subscription is any CustomDebugStringConvertible))
    }

    /// As in Combine: "FlatMap", also in playgrounds; one mirror child, the combineIdentifier of
    /// the object the upstream and the downstream see; an identifier of its own; no debug
    /// description.
    @Test func theSubscriberOfEachChildShowsTheParentSubscription() throws {
        let subscriber = TestSubscriber<Int, TestError>()
        let child = Rig(subscriber: subscriber).child()
        let link = try #require(child.link)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: link) == "FlatMap")
        let children = Array(Mirror(reflecting: link).children)
        #expect(children.map(\.label) == ["parentSubscription"])
        #expect(children.first?.value as? CombineIdentifier == subscription.combineIdentifier)
        #expect((link as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "FlatMap")
        #expect(!(link is any CustomDebugStringConvertible))
        #expect(!(link is any Subscription))
        #expect(type(of: link) != type(of: subscription))
        let identifier = try #require((link as? any CustomCombineIdentifierConvertible)?.combineIdentifier)
        #expect(identifier != subscription.combineIdentifier)
    }

    @Test func aChildIsAskedForOneValueUnderLimitedDemandAndForAllUnderUnlimited() {
        let limited = Rig(subscriber: TestSubscriber(initialDemand: .max(5))).child()
        #expect(limited.requests == [.max(1)])
        let unlimited = Rig(subscriber: TestSubscriber(initialDemand: .unlimited)).child()
        #expect(unlimited.requests == [.unlimited])
    }

    @Test func aDeliveredValueReturnsOneMoreInsteadOfRequestingIt() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(2)))
        let child = rig.child()
        #expect(child.send(1) == .max(1))
        #expect(child.send(2) == .max(1))
        #expect(child.requests == [.max(1)])
        #expect(rig.subscriber.values == [1, 2])
    }

    @Test func underUnlimitedDemandAValueReturnsNone() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .unlimited))
        let child = rig.child()
        #expect(child.send(1) == .none)
        #expect(rig.subscriber.values == [1])
    }

    @Test func theDownstreamsAnswerIsAddedToTheDemand() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .max(1), demandPerValue: .max(1)))
        let child = rig.child()
        for value in 1...3 { child.send(value) }
        #expect(rig.subscriber.values == [1, 2, 3])
        #expect(child.returned == [.max(1), .max(1), .max(1)])
    }

    @Test func aValueWithoutDemandIsBufferedUntilRequestedAndThenItsChildIsAskedForOneMore() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        let child = rig.child()
        #expect(child.send(1) == .none)
        #expect(child.send(2) == .none)
        #expect(rig.subscriber.values.isEmpty)
        rig.subscriber.request(.max(1))
        #expect(rig.subscriber.values == [1])
        #expect(child.requests == [.max(1), .max(1)])
        rig.subscriber.request(.max(1))
        #expect(rig.subscriber.values == [1, 2])
        #expect(child.requests == [.max(1), .max(1), .max(1)])
    }

    @Test func aValueSentWhileTheChildIsAskedForMoreIsBuffered() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        let child = rig.child()
        child.send(1)
        var next = 2
        child.onRequest = { _ in
            child.send(next)
            next += 1
        }
        rig.subscriber.request(.max(2))
        // 1 from the buffer; asking its child for one more sends 2 (buffered, then delivered),
        // and asking again sends 3, which waits for demand.
        #expect(rig.subscriber.values == [1, 2])
        #expect(child.returned == [.none, .none, .none])
        child.onRequest = nil
        rig.subscriber.request(.max(1))
        #expect(rig.subscriber.values == [1, 2, 3])
    }

    @Test func anUnlimitedRequestDeliversTheBufferThenAsksEveryChildForEverything() {
        let log = Log<String>()
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil, onValue: { log.append("value \($0)") }))
        let first = rig.child()
        let second = rig.child()
        first.send(1)
        second.send(2)
        first.onRequest = { log.append("first asked for \($0)") }
        second.onRequest = { log.append("second asked for \($0)") }
        rig.subscriber.request(.unlimited)
        #expect(log.items.prefix(2) == ["value 1", "value 2"])
        #expect(Set(log.items.dropFirst(2)) == ["first asked for unlimited", "second asked for unlimited"])
    }

    @Test func aRequestFromInsideTheDownstreamOnlyAddsDemand() {
        var subscription: (any Subscription)?
        let subscriber = TestSubscriber<Int, TestError>(
            initialDemand: .max(1),
            onValue: { _ in
                subscription?.request(.unlimited)
            })
        let rig = Rig(subscriber: subscriber)
        subscription = subscriber.subscription
        let child = rig.child()
        #expect(child.send(1) == .max(1))
        // Not asked for unlimited; the demand is unlimited from now on.
        #expect(child.requests == [.max(1)])
        #expect(child.send(2) == .none)
        #expect(subscriber.values == [1, 2])
    }

    @Test func requestingNoneTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Just(1).flatMap { Just($0) }.subscribe(subscriber)
            subscriber.request(.none)
        }
    }

    @Test func noPublishersIsLegal() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .none) { Just($0).setFailureType(to: TestError.self) }.subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        #expect(upstream.subscriptions.map(\.requests) == [[.none]])
    }

    @Test func everyFinishedChildAsksTheUpstreamForOneMoreEvenARepeatedOne() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let child = ChildProbe()
        upstream.flatMap(maxPublishers: .max(1)) { _ in child }.subscribe(TestSubscriber<Int, TestError>())
        upstream.send(0)
        child.finish()
        child.finish()
        #expect(upstream.subscriptions.map(\.requests) == [[.max(1), .max(1), .max(1)]])
    }

    @Test func withUnlimitedPublishersAFinishedChildAsksForNothing() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let child = ChildProbe()
        upstream.flatMap { _ in child }.subscribe(TestSubscriber<Int, TestError>())
        upstream.send(0)
        child.finish()
        #expect(upstream.subscriptions.map(\.requests) == [[.unlimited]])
    }

    @Test func finishesOnlyOnceTheBufferIsDelivered() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: nil))
        let child = rig.child()
        child.send(1)
        child.finish()
        rig.outer.send(completion: .finished)
        #expect(rig.subscriber.completion == nil)
        rig.subscriber.request(.max(1))
        #expect(rig.subscriber.events == [.subscription("FlatMap"), .value(1), .completion(.finished)])
    }

    @Test func aFailingChildCancelsTheOtherChildrenButNotItselfNorTheUpstream() {
        let log = Log<String>()
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let children = [ChildProbe("a", log: log), ChildProbe("b", log: log), ChildProbe("c", log: log)]
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { children[$0] }.subscribe(subscriber)
        for index in 0..<3 { upstream.send(index) }
        children[1].fail()
        #expect(Set(log.items.filter { $0.hasPrefix("cancel") }) == ["cancel a", "cancel c"])
        #expect(upstream.subscriptions.map(\.cancels) == [0])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func aFailingUpstreamCancelsEveryChildButNotItself() {
        let log = Log<String>()
        let upstream = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        let children = [ChildProbe("a", log: log), ChildProbe("b", log: log)]
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { children[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        upstream.fail()
        #expect(Set(log.items.filter { $0.hasPrefix("cancel") }) == ["cancel a", "cancel b"])
        #expect(upstream.subscriptions.map(\.cancels) == [0])
        #expect(subscriber.completions == [.failure(.other)])
    }

    /// Combine still delivers a child's value that arrives after the failure was
    /// sent; Streams sends nothing after a completion.
    @Test func nothingIsDeliveredAfterAFailure() {
        let rig = Rig(subscriber: TestSubscriber(initialDemand: .unlimited))
        let failing = rig.child()
        let other = rig.child()
        failing.fail()
        #expect(other.send(1) == .none)
        #expect(rig.subscriber.events == [.subscription("FlatMap"), .completion(.failure(.oops))])
    }

    /// Combine traps when the upstream fails while the children are being cancelled.
    @Test func anUpstreamFailingWhileTheChildrenAreCancelledIsIgnored() {
        let upstream = ManualUpstream<Int, TestError>(failure: .other) { $0 }
        let children = [ChildProbe("a"), ChildProbe("b")]
        children[0].onCancel = { upstream.fail() }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { children[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        children[1].fail()
        #expect(children[0].cancels == 1)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func aChildFinishingAfterTheUpstreamFinishedAsksForNothing() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let children = [ChildProbe("a"), ChildProbe("b")]
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap(maxPublishers: .max(2)) { children[$0] }.subscribe(subscriber)
        upstream.send(0)
        upstream.send(1)
        let subscription = upstream.subscriptions[0]
        upstream.finish()
        children[0].finish()
        #expect(subscription.requests == [.max(2)])
        #expect(subscriber.completion == nil)
        children[1].finish()
        #expect(subscriber.completions == [.finished])
    }

    @Test func afterCancelEverythingIsIgnoredAndTheChildrenAndUpstreamAreCancelled() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let child = ChildProbe()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.flatMap { _ in child }.subscribe(subscriber)
        upstream.send(0)
        subscriber.cancel()
        #expect(child.cancels == 1)
        #expect(upstream.subscriptions.map(\.cancels) == [1])
        #expect(child.send(1) == .none)
        child.finish()
        #expect(subscriber.events == [.subscription("FlatMap")])
    }
}

/// The ``FlatMapStateMachine`` by itself.
@Suite("flatMap's state machine")
struct FlatMapStateMachineTests {
    typealias Machine = FlatMapStateMachine<Int, TestError>

    @Test func movesThroughItsPhases() {
        var machine = Machine(maxPublishers: .max(1), resources: Tracked())
        guard case .awaitingSubscription = machine.phase else { Issue.record("\(machine.phase)"); return }
        let accepted = machine.upstreamSubscribed(RecordingSubscription())
        #expect(accepted)
        let acceptedAgain = machine.upstreamSubscribed(RecordingSubscription())
        #expect(!acceptedAgain)
        guard case .subscribed = machine.phase else { Issue.record("\(machine.phase)"); return }
        guard case .subscribe(let child, _) = machine.upstreamSentValue() else { Issue.record("ignored"); return }
        #expect(child == 0)
        let childDemand = machine.childSubscribed(0, RecordingSubscription())
        #expect(childDemand == .max(1))
        let secondChildDemand = machine.childSubscribed(0, RecordingSubscription())
        #expect(secondChildDemand == nil)
        let finishing = machine.upstreamFinished()
        #expect(finishing == nil)
        guard case .upstreamFinished = machine.phase else { Issue.record("\(machine.phase)"); return }
        guard case .end(let remains) = machine.childFinished(0) else { Issue.record("not ended"); return }
        #expect(remains.resources != nil)
        guard case .terminated = machine.phase else { Issue.record("\(machine.phase)"); return }
        #expect(machine.resources == nil)
    }

    @Test func aChildThatCompletesAtOnceIsNeverPutInTheTable() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        guard case .subscribe(let child, _) = machine.upstreamSentValue() else { Issue.record("ignored"); return }
        #expect(machine.newestChild == child)
        #expect(machine.children.isEmpty)
        // The upstream finishing while the child starts does not end the stream...
        #expect(machine.upstreamFinished() == nil)
        guard case .upstreamFinished = machine.phase else { Issue.record("\(machine.phase)"); return }
        // ... the child's completion does.
        guard case .end = machine.childFinished(child) else { Issue.record("not ended"); return }
        #expect(machine.newestChild == -1)
    }

    @Test func aSubscribedChildThatFinishesBeforeTheNextStartsIsNeverPutInTheTable() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        for child in 0..<3 {
            _ = machine.upstreamSentValue()
            #expect(machine.childSubscribed(child, RecordingSubscription()) == .max(1))
            #expect(machine.childSubscribed(child, RecordingSubscription()) == nil)
            guard case .subscribed = machine.newestStatus else { Issue.record("\(machine.newestStatus)"); return }
            #expect(machine.children.isEmpty)
            guard case .none = machine.childFinished(child) else { Issue.record("ended early"); return }
            #expect(machine.newestChild == -1)
        }
    }

    @Test func theNewestChildMovesToTheTableAsItIsWhenTheNextOneStarts() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentValue()
        // Child 0's subscription has not arrived when child 1 starts: 0 waits in the table.
        _ = machine.upstreamSentValue()
        #expect(machine.newestChild == 1)
        guard case .awaitingSubscription = machine.children[0] else { Issue.record("\(machine.children)"); return }
        // Child 1's subscription arrives: it stays the newest, subscribed, until child 2 starts.
        #expect(machine.childSubscribed(1, RecordingSubscription()) == .max(1))
        #expect(machine.children.count == 1)
        _ = machine.upstreamSentValue()
        #expect(machine.newestChild == 2)
        guard case .subscribed = machine.children[1] else { Issue.record("\(machine.children)"); return }
        #expect(machine.childSubscribed(1, RecordingSubscription()) == nil)
        #expect(machine.childSubscribed(0, RecordingSubscription()) == .max(1))
        // All count until they finish, however they got in.
        _ = machine.upstreamFinished()
        guard case .none = machine.childFinished(1) else { Issue.record("ended early"); return }
        guard case .none = machine.childFinished(2) else { Issue.record("ended early"); return }
        guard case .end = machine.childFinished(0) else { Issue.record("not ended"); return }
    }

    @Test func theNewestChildIsCancelledAndAskedForEverythingWithTheOthers() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        let older = RecordingSubscription()
        let newest = RecordingSubscription()
        _ = machine.upstreamSentValue()
        _ = machine.childSubscribed(0, older)
        _ = machine.upstreamSentValue()
        _ = machine.childSubscribed(1, newest)
        guard case .proceed(_, let unlimited) = machine.requested(.unlimited, thread: 1) else {
            Issue.record("no request")
            return
        }
        #expect(Set(unlimited.map(\.combineIdentifier)) == [older.combineIdentifier, newest.combineIdentifier])
        // A failing older child cancels the newest one, not itself.
        let ending = machine.childFailed(0, .failure(.oops))
        #expect(ending?.cancel.map(\.combineIdentifier) == [newest.combineIdentifier])
        #expect(machine.newestChild == -1)
    }

    @Test func theNewestChildIsCancelledWithTheUpstreamWhenTheDownstreamCancels() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        let upstream = RecordingSubscription()
        _ = machine.upstreamSubscribed(upstream)
        let newest = RecordingSubscription()
        _ = machine.upstreamSentValue()
        _ = machine.childSubscribed(0, newest)
        let ending = machine.cancelled()
        #expect(ending?.cancel.map(\.combineIdentifier) == [newest.combineIdentifier, upstream.combineIdentifier])
    }

    @Test func aStartingChildsLateSubscriptionIsCancelledOnceTheStreamHasEnded() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentValue()
        _ = machine.cancelled()
        #expect(machine.newestChild == -1)
        #expect(machine.childSubscribed(0, RecordingSubscription()) == nil)
    }

    @Test func aCompletionDecidedWhileAThreadDeliversIsLeftToThatThread() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentValue()
        _ = machine.childSubscribed(0, RecordingSubscription())
        _ = machine.requested(.unlimited, thread: 1)
        guard case .deliver = machine.childSentValue(7, from: 0, thread: 1) else { Issue.record("not delivered"); return }
        let remains = machine.childFailed(0, .failure(.oops))
        #expect(remains != nil && remains?.resources == nil)
        guard case .completing = machine.phase, machine.pendingFailure as? TestError == .oops else {
            Issue.record("\(machine.phase)")
            return
        }
        guard case .complete(let final, let sent?) = machine.nextDelivery(adding: .none), sent as? TestError == .oops else {
            Issue.record("no completion")
            return
        }
        #expect(final.resources != nil)
        guard case .terminated = machine.phase else { Issue.record("\(machine.phase)"); return }
        #expect(!machine.turn.isHeld)
    }

    @Test func aReentrantValueIsBufferedAndDeliveredNext() {
        var machine = Machine(maxPublishers: .unlimited, resources: Tracked())
        _ = machine.upstreamSubscribed(RecordingSubscription())
        _ = machine.upstreamSentValue()
        _ = machine.childSubscribed(0, RecordingSubscription())
        _ = machine.requested(.max(3), thread: 1)
        guard case .deliver(_, unlimited: false) = machine.childSentValue(1, from: 0, thread: 1) else {
            Issue.record("not delivered")
            return
        }
        guard case .none = machine.childSentValue(2, from: 0, thread: 1) else { Issue.record("not buffered"); return }
        guard case .deliver(_, 2, child: .subscribed) = machine.nextDelivery(adding: .none) else {
            Issue.record("buffer not delivered")
            return
        }
        guard case .stop = machine.nextDelivery(adding: .none) else { Issue.record("turn kept"); return }
        #expect(machine.demand == .max(1))
    }
}
