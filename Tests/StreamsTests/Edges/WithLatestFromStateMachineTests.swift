import StreamsTesting
import Testing

@testable import Streams
@testable import StreamsExt

/// `WithLatestFromStateMachine` on its own: the events in every phase, without publishers.
@Suite struct WithLatestFromStateMachineTests {
    private typealias Machine = WithLatestFromStateMachine<TestSubscriber<Int, TestError>, String>

    private func isSubscribeUpstream(_ action: Machine.OtherValueAction) -> Bool {
        if case .subscribeUpstream = action { true } else { false }
    }

    @Test func onlyTheOthersFirstValueSubscribesTheUpstream() {
        var machine = Machine(downstream: TestSubscriber())
        #expect(isSubscribeUpstream(machine.receiveOtherValue("a")))
        #expect(!isSubscribeUpstream(machine.receiveOtherValue("b")))
        #expect(machine.latest == "b")
    }

    @Test func requestsWaitForTheUpstreamSubscription() {
        var machine = Machine(downstream: TestSubscriber())
        _ = machine.request(.max(2))
        _ = machine.request(.max(1))
        _ = machine.receiveOtherValue("a")
        guard case .request(_, let demand) = machine.receiveUpstreamSubscription(RecordingSubscription()) else {
            Issue.record("the subscription was refused")
            return
        }
        #expect(demand == .max(3))
        #expect(machine.pendingDemand == .none)
        guard case .forward = machine.request(.max(1)) else {
            Issue.record("a request once subscribed is not forwarded")
            return
        }
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        var machine = Machine(downstream: TestSubscriber())
        _ = machine.receiveOtherValue("a")
        _ = machine.receiveUpstreamSubscription(RecordingSubscription())
        guard case .cancel = machine.receiveUpstreamSubscription(RecordingSubscription()) else {
            Issue.record("a second subscription was accepted")
            return
        }
    }

    @Test func theOtherFinishingEmptyEndsTheStreamFinishingAfterAValueDoesNot() {
        var empty = Machine(downstream: TestSubscriber())
        guard case .complete(_, let cancelling) = empty.receiveOtherCompletion(failed: false) else {
            Issue.record("an other that finished empty did not end the stream")
            return
        }
        #expect(cancelling == nil)

        var withValue = Machine(downstream: TestSubscriber())
        _ = withValue.receiveOtherValue("a")
        guard case .none = withValue.receiveOtherCompletion(failed: false) else {
            Issue.record("an other that finished after a value ended the stream")
            return
        }
        _ = withValue.receiveUpstreamSubscription(RecordingSubscription())
        guard case .deliver(_, let latest) = withValue.receiveUpstreamValue() else {
            Issue.record("a value after the other finished was not delivered")
            return
        }
        #expect(latest == "a")
    }

    @Test func theOthersFailureCancelsTheUpstream() {
        var machine = Machine(downstream: TestSubscriber())
        _ = machine.receiveOtherValue("a")
        let upstream = RecordingSubscription()
        _ = machine.receiveUpstreamSubscription(upstream)
        guard case .complete(_, let cancelling) = machine.receiveOtherCompletion(failed: true) else {
            Issue.record("the other's failure did not end the stream")
            return
        }
        #expect(cancelling as? RecordingSubscription === upstream)
        guard case .none = machine.receiveUpstreamValue() else {
            Issue.record("a value after the end was delivered")
            return
        }
    }

    @Test func theUpstreamsCompletionCancelsTheOther() {
        var machine = Machine(downstream: TestSubscriber())
        let other = RecordingSubscription()
        _ = machine.receiveOtherSubscription(other)
        _ = machine.receiveOtherValue("a")
        _ = machine.receiveUpstreamSubscription(RecordingSubscription())
        guard case .complete(_, let cancelling) = machine.receiveUpstreamCompletion() else {
            Issue.record("the upstream's completion did not end the stream")
            return
        }
        #expect(cancelling as? RecordingSubscription === other)
    }

    @Test func cancelHandsBackBothSubscriptionsOnce() {
        var machine = Machine(downstream: TestSubscriber())
        let other = RecordingSubscription()
        let upstream = RecordingSubscription()
        _ = machine.receiveOtherSubscription(other)
        _ = machine.receiveOtherValue("a")
        _ = machine.receiveUpstreamSubscription(upstream)
        guard case .cancel(let cancelledUpstream, let cancelledOther, _) = machine.cancel() else {
            Issue.record("cancel handed nothing back")
            return
        }
        #expect(cancelledUpstream as? RecordingSubscription === upstream)
        #expect(cancelledOther as? RecordingSubscription === other)
        guard case .none = machine.cancel() else {
            Issue.record("a second cancel handed something back")
            return
        }
    }
}
