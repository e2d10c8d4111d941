@testable import Streams
import StreamsTesting
import Testing

/// A text stream that keeps every `write` call apart.
private final class WriteLog: TextOutputStream {
    var writes: [String] = []
    func write(_ string: String) { writes.append(string) }
    /// The lines written, without their newlines.
    var lines: [String] { writes.joined().split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A publisher object that only a pipeline refers to; like a relay, it finishes its subscribers
/// when it goes away.
private final class OwnedSource: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let subject = PassthroughSubject<Int, Never>()

    deinit { subject.send(completion: .finished) }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }
}

/// print and handleEvents at the edges.
@Suite struct PrintAndHandleEventsEdgeTests {
    private static func ints() -> ManualUpstream<Int, TestError> { ManualUpstream(failure: .oops) { $0 } }

    @Test func printWritesEachLineAsSwiftPrintDoes() {
        let log = WriteLog()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.print("p", to: log).subscribe(subscriber)
        upstream.send(1)
        subscriber.request(.none)
        upstream.finish()
        #expect(
            log.writes == [
                "", "p: receive subscription: (ManualSubscription)", "\n", "", "p: request max: (2)", "\n",
                "", "p: receive value: (1)", "\n", "", "p: request max: (1) (synchronous)", "\n",
                "", "p: request max: (0)", "\n", "", "p: receive finished", "\n",
            ])
        // `.none` is accepted and passed on.
        #expect(upstream.subscriptions[0].requests == [.max(2), .none])
        #expect(subscriber.events == [.subscription("Print"), .value(1), .completion(.finished)])
    }

    @Test func printLogsTheDemandTheDownstreamReturnsAlsoZeroAndUnlimited() {
        let log = WriteLog()
        let upstream = Self.ints()
        let unlimited = TestSubscriber<Int, TestError>(demandPerValue: .unlimited)
        upstream.print(to: log).subscribe(unlimited)
        upstream.send(1)
        upstream.fail()
        #expect(
            log.lines == [
                "receive subscription: (ManualSubscription)", "request unlimited", "receive value: (1)",
                "request unlimited (synchronous)", "receive error: (oops)",
            ])
    }

    @Test func printLogsEveryEventWhateverTheState() throws {
        let log = WriteLog()
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.print("p", to: log).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        // Before the subscription: logged; cancel is a no-op, the request goes nowhere.
        inner.cancel()
        inner.request(.max(1))
        let first = try #require(upstream.sendSubscription())
        #expect(subscriber.subscriptionCount == 1)
        let second = upstream.sendSecondSubscription()
        #expect(second.cancels == 1)
        upstream.ignoresCancel = true
        subscriber.cancel()
        inner.request(.max(3))
        inner.cancel()
        upstream.send(5)
        upstream.finish()
        inner.request(.unlimited)
        #expect(first.requests.isEmpty)
        #expect(first.cancels == 1)
        #expect(
            log.lines == [
                "p: receive cancel", "p: request max: (1)", "p: receive subscription: (ManualSubscription)",
                "p: receive subscription: (ManualSubscription)", "p: receive cancel", "p: request max: (3)",
                "p: receive cancel", "p: receive value: (5)", "p: receive finished", "p: request unlimited",
            ])
        // Streams forwards nothing after the cancel (Combine does: it keeps its downstream).
        #expect(subscriber.events == [.subscription("Print")])
    }

    @Test func printLogsBeforeActing() {
        final class Ordered: TextOutputStream {
            var trace: [String] = []
            func write(_ string: String) { if !string.isEmpty && string != "\n" { trace.append(string) } }
        }
        let log = Ordered()
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(1), onValue: { log.trace.append("downstream \($0)") })
        [7].publisher.print(to: log).subscribe(subscriber)
        #expect(
            log.trace == [
                "receive subscription: ([7])", "request max: (1)", "receive value: (7)", "downstream 7",
                "request max: (0) (synchronous)", "receive finished",
            ])
    }

    @Test func handleEventsRunsItsHooksForEveryEvent() throws {
        var trace: [String] = []
        let upstream = Self.ints()
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil, demandPerValue: .max(2))
        upstream.handleEvents(
            receiveSubscription: { trace.append("subscription \($0)") },
            receiveOutput: { trace.append("output \($0)") },
            receiveCompletion: { trace.append("completion \($0)") },
            receiveCancel: { trace.append("cancel") },
            receiveRequest: { trace.append("request \($0)") }
        ).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.request(.none)
        inner.cancel()
        // The early cancel left it awaiting: the late subscription is accepted.
        let first = try #require(upstream.sendSubscription())
        #expect(subscriber.subscriptionCount == 1)
        let duplicate = upstream.sendSecondSubscription()
        #expect(duplicate.cancels == 1)
        subscriber.request(.max(1))
        upstream.send(1)
        upstream.finish()
        inner.request(.max(4))
        #expect(first.requests == [.max(1)])
        #expect(
            trace == [
                "request max(0)", "cancel", "subscription ManualSubscription", "subscription ManualSubscription",
                "request max(1)", "output 1", "request max(2)", "completion finished",
            ])
        #expect(subscriber.events == [.subscription("HandleEvents"), .value(1), .completion(.finished)])
    }

    @Test func handleEventsSkipsTheRequestHookForZeroReturnedDemandAndReleasesHooksOnCancel() throws {
        var trace: [String] = []
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .unlimited)
        upstream.handleEvents(
            receiveOutput: { trace.append("output \($0)") }, receiveCancel: { trace.append("cancel") },
            receiveRequest: { trace.append("request \($0)") }
        ).subscribe(subscriber)
        upstream.send(1)
        upstream.ignoresCancel = true
        subscriber.cancel()
        subscriber.cancel()
        upstream.send(2)
        #expect(trace == ["request unlimited", "output 1", "cancel"])
        #expect(upstream.subscriptions[0].cancels == 1)
        #expect(subscriber.values == [1])
    }

    /// The subscription keeps the closures, not the publisher value with its upstream: an
    /// upstream object that nothing else refers to goes away while subscribed (as in Combine).
    @Test(arguments: ["handleEvents", "print", "breakpoint"])
    func theSubscriptionDoesNotKeepTheUpstreamPublisherAlive(_ form: String) {
        weak var released: OwnedSource?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let source = OwnedSource()
            released = source
            switch form {
            case "handleEvents": source.handleEvents(receiveOutput: { _ in }).subscribe(subscriber)
            case "print": source.print(to: WriteLog()).subscribe(subscriber)
            default: source.breakpoint(receiveOutput: { _ in false }).subscribe(subscriber)
            }
            source.subject.send(1)
        }
        #expect(released == nil)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func handleEventsMachinePhases() {
        var machine = EventHooksStateMachine<String, String>(downstream: "down", hooks: "hooks", keepsHooks: false)
        #expect(machine.request().hooks == "hooks")
        #expect(machine.request().target == nil)
        #expect(machine.cancel().upstream == nil)
        #expect(machine.subscription(Subscriptions.empty).target == "down")
        #expect(machine.subscription(Subscriptions.empty).target == nil)
        #expect(machine.value().target == "down")
        #expect(machine.cancel().upstream != nil)
        #expect(machine.value().hooks == nil)
        #expect(machine.value().target == nil)
        let late = machine.completion()
        #expect(late.hooks == nil && late.target == nil)
        var printing = EventHooksStateMachine<String, String>(downstream: "down", hooks: "log", keepsHooks: true)
        _ = printing.subscription(Subscriptions.empty)
        let completion = printing.completion()
        #expect(completion.hooks == "log" && completion.target == "down")
        #expect(printing.value().hooks == "log")
        #expect(printing.value().target == nil)
        #expect(printing.cancel().hooks == "log")
    }
}

extension EventHooksStateMachine.Action {
    /// The hooks the action runs.
    fileprivate var hooks: Hooks? {
        switch self {
        case .runHooks(let hooks), .forward(let hooks, _): hooks
        }
    }

    /// Whom the event is passed on to, if anyone.
    fileprivate var target: Target? {
        if case .forward(_, let target) = self { target } else { nil }
    }
}

extension EventHooksStateMachine.CancelAction {
    /// The hooks the cancel runs.
    fileprivate var hooks: Hooks? {
        switch self {
        case .runHooks(let hooks), .cancel(let hooks, _, _): hooks
        }
    }

    /// The upstream to cancel, if any.
    fileprivate var upstream: (any Subscription)? {
        if case .cancel(_, let upstream, _) = self { upstream } else { nil }
    }
}
