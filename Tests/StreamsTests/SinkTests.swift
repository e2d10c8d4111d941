import Dispatch
import Streams
import Synchronization
import StreamsTesting
import Testing

@Suite("Subscribers.Sink")
struct SinkTests {
    @Test func receivesValuesThenCompletion() {
        let values = Log<Int>()
        let completions = Log<Subscribers.Completion<Never>>()
        let cancellable = [1, 2, 3].publisher.sink(
            receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        #expect(values.items == [1, 2, 3])
        #expect(completions.items == [.finished])
        cancellable.cancel()
    }

    @Test func valueOnlyOverloadForNeverFailing() {
        let values = Log<String>()
        let cancellable = Just("a").sink { values.append($0) }
        #expect(values.items == ["a"])
        _ = cancellable
    }

    @Test func requestsUnlimitedOnSubscription() {
        let requests = Log<Subscribers.Demand>()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.handleEvents(receiveRequest: { requests.append($0) }).sink { _ in }
        #expect(requests.items == [.unlimited])
        cancellable.cancel()
    }

    @Test func releasesClosuresOnCompletion() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let token = Tracked()
            weakToken = token
            cancellable = subject.sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
        }
        #expect(weakToken != nil)
        subject.send(completion: .finished)
        #expect(weakToken == nil)
        _ = cancellable
    }

    @Test func letsGoOfTheUpstreamSubscriptionOnCompletionAndDoesNotCancelIt() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        weak var weakSubscription: RecordingSubscription?
        do {
            let subscription = RecordingSubscription()
            weakSubscription = subscription
            sink.receive(subscription: subscription)
        }
        #expect(weakSubscription != nil)
        sink.receive(completion: .finished)
        #expect(weakSubscription == nil)
        sink.cancel()
    }

    @Test func cancelsTheUpstreamSubscriptionOnceAndLetsGoOfIt() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        var subscription = RecordingSubscription()
        sink.receive(subscription: subscription)
        sink.cancel()
        sink.cancel()
        sink.receive(completion: .finished)
        #expect(subscription.cancels == 1)
        #expect(isKnownUniquelyReferenced(&subscription))
    }

    @Test func releasesClosuresOnCancel() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let token = Tracked()
            weakToken = token
            cancellable = subject.sink { _ in _ = token }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }

    @Test func ignoresEverythingAfterCompletion() {
        let values = Log<Int>()
        let completions = Log<Subscribers.Completion<TestError>>()
        let sink = Subscribers.Sink<Int, TestError>(
            receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })
        sink.receive(subscription: Subscriptions.empty)
        _ = sink.receive(1)
        sink.receive(completion: .finished)
        _ = sink.receive(2)
        sink.receive(completion: .failure(.oops))
        #expect(values.items == [1])
        #expect(completions.items == [.finished])
    }

    @Test func cancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        sink.receive(subscription: first)
        sink.receive(subscription: second)
        #expect(first.requests == [.unlimited])
        #expect(first.cancels == 0)
        #expect(second.requests.isEmpty)
        #expect(second.cancels == 1)
        sink.cancel()
        sink.cancel()
        #expect(first.cancels == 1)
    }

    @Test func reentrantCancelFromReceiveValue() {
        let subject = PassthroughSubject<Int, Never>()
        let values = Log<Int>()
        var cancellable: AnyCancellable?
        cancellable = subject.sink { value in
            values.append(value)
            cancellable?.cancel()
        }
        subject.send(1)
        subject.send(2)
        #expect(values.items == [1])
    }

    @Test func cancelInsideTheValueClosureReleasesTheClosuresOnceItReturns() {
        weak var weakToken: Tracked?
        let stillAliveDuringTheCall = Log<Bool>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let token = Tracked()
            weakToken = token
            var cancelSelf: () -> Void = {}
            sink = Subscribers.Sink(receiveCompletion: { _ in _ = token }) { _ in
                cancelSelf()
                stillAliveDuringTheCall.append(weakToken != nil)
            }
            cancelSelf = { [unowned sink] in sink.cancel() }
        }
        sink.receive(subscription: Subscriptions.empty)
        _ = sink.receive(1)
        #expect(stillAliveDuringTheCall.items == [true])
        #expect(weakToken == nil)
        _ = sink.receive(2)
        #expect(stillAliveDuringTheCall.items == [true])
    }

    @Test func completionInsideTheValueClosureIsDeliveredOnce() {
        weak var weakToken: Tracked?
        let events = Log<String>()
        let tokenAliveAfterCompletion = Log<Bool>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let token = Tracked()
            weakToken = token
            var completeSelf: () -> Void = {}
            sink = Subscribers.Sink(receiveCompletion: {
                _ = token; events.append("completion \($0)")
            }) { value in
                events.append("value \(value)")
                completeSelf()
                tokenAliveAfterCompletion.append(weakToken != nil)
            }
            completeSelf = { [unowned sink] in sink.receive(completion: .finished) }
        }
        sink.receive(subscription: Subscriptions.empty)
        _ = sink.receive(1)
        _ = sink.receive(2)
        sink.receive(completion: .finished)
        #expect(events.items == ["value 1", "completion finished"])
        // The closures stay alive until the value closure returns, then go.
        #expect(tokenAliveAfterCompletion.items == [true])
        #expect(weakToken == nil)
    }

    @Test func cancelRacingWithValuesReleasesTheClosuresExactlyOnce() {
        for _ in 0..<200 {
            weak var weakToken: Tracked?
            let delivered = Locked(0)
            let sink: Subscribers.Sink<Int, Never>
            do {
                let token = Tracked()
                weakToken = token
                sink = Subscribers.Sink(receiveCompletion: { _ in _ = token }) { _ in
                    _ = token
                    delivered.withLock { $0 += 1 }
                }
            }
            sink.receive(subscription: Subscriptions.empty)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<200 { _ = sink.receive(value) }
                } else {
                    sink.cancel()
                }
            }
            let countAfterCancel = delivered.withLock { $0 }
            _ = sink.receive(-1)
            #expect(weakToken == nil)
            #expect(delivered.withLock { $0 } == countAfterCancel)
        }
    }

    @Test func description() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(String(describing: sink) == "Sink")
    }
}
