import Streams
import StreamsTesting
import Testing

/// `replaceError(with:)` and `replaceEmpty(with:)` at the edges.
@Suite("replaceError / replaceEmpty at the edges")
struct ReplaceEdgeTests {
    // MARK: replaceError

    @Test func replaceErrorHoldsTheReplacementUntilRequested() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        upstream.replaceError(with: 9).subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.events.count == 1)
        subscriber.request(.max(1))
        #expect(subscriber.values == [9])
        #expect(subscriber.completions == [.finished])
    }

    @Test func replaceErrorSendsTheReplacementAtOnceWithDemand() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 9).subscribe(subscriber)
        upstream.send(1)
        upstream.fail()
        #expect(subscriber.values == [1, 9])
        #expect(subscriber.completions == [.finished])
    }

    @Test func replaceErrorIgnoresEventsBeforeTheSubscription() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<Int, Never>()
        upstream.replaceError(with: 9).subscribe(subscriber)
        upstream.send(1)
        upstream.fail()
        #expect(subscriber.events.isEmpty)
    }

    @Test func replaceErrorAddsUpRequestsBeforeTheSubscriptionAndKeepsItAfterAnEarlyCancel() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        upstream.replaceError(with: 9).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.request(.max(2))
        inner.request(.max(1))
        inner.cancel()
        let late = upstream.sendSubscription()
        #expect(subscriber.subscriptionCount == 1)
        #expect(late?.requests == [.max(3)])
        #expect(late?.cancels == 0)
    }

    @Test func replaceErrorLetsGoOfTheDownstreamAfterACompletionAndACancel() {
        weak var completed: TestSubscriber<Int, Never>?
        weak var cancelled: TestSubscriber<Int, Never>?
        let first = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let second = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        do {
            let one = TestSubscriber<Int, Never>()
            let two = TestSubscriber<Int, Never>()
            completed = one
            cancelled = two
            first.replaceError(with: 0).subscribe(one)
            second.replaceError(with: 0).subscribe(two)
            first.fail()
            two.cancel()
        }
        #expect(completed == nil)
        // Combine keeps the downstream after a cancel; Streams lets it go.
        #expect(cancelled == nil)
    }

    @Test func replaceErrorDescribesItself() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.replaceError(with: 0).subscribe(TestSubscriber<Int, Never>())
        let inner = try #require(upstream.subscriber)
        #expect(String(describing: inner) == "ReplaceError")
        #expect(Mirror(reflecting: inner).children.isEmpty)
    }

    @Test func replaceErrorTrapsOnAValueWithoutDemand() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            upstream.replaceError(with: 0).subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
            upstream.send(1)
            upstream.send(2)
        }
        MisuseTests.expectMessage("received a value without demand", in: trap)
    }

    @Test func replaceErrorTrapsOnZeroDemand() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Fail<Int, TestError>(error: .oops).replaceError(with: 0).subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: trap)
    }

    // MARK: replaceEmpty

    @Test func replaceEmptySendsTheReplacementWhenRequested() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        upstream.finish()
        #expect(subscriber.values == [5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func replaceEmptyHoldsTheReplacementUntilTheFirstRequest() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        upstream.finish()
        #expect(subscriber.events.count == 1)
        subscriber.request(.max(1))
        #expect(subscriber.values == [5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func replaceEmptyForwardsAFailureAtOnce() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.values == [])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func replaceEmptyDoesNotReplaceAfterAValue() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    /// Combine asks the upstream for `.unlimited` as well; Streams forwards only what
    /// the downstream requests.
    @Test func replaceEmptyAsksTheUpstreamOnlyForTheDownstreamsDemand() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        subscriber.request(.max(3))
        #expect(upstream.subscriptions[0].requests == [.max(2), .max(3)])
    }

    @Test func replaceEmptyAddsUpRequestsBeforeTheSubscriptionAndKeepsItAfterAnEarlyCancel() throws {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.holdsSubscription = true
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.replaceEmpty(with: 5).subscribe(subscriber)
        let inner = try #require(upstream.subscriber as? any Subscription)
        inner.request(.max(4))
        inner.cancel()
        let late = upstream.sendSubscription()
        #expect(subscriber.subscriptionCount == 1)
        #expect(late?.requests == [.max(4)])
        // A request counts: an empty upstream is replaced at once.
        upstream.finish()
        #expect(subscriber.values == [5])
    }

    @Test func replaceEmptyTrapsOnZeroDemand() async {
        let trap = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Empty<Int, Never>().replaceEmpty(with: 0).subscribe(subscriber)
            subscriber.request(.none)
        }
        MisuseTests.expectMessage("API Violation: demand must not be zero", in: trap)
    }
}
