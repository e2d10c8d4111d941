import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    @Test func deliversTheCurrentValueOnTheFirstRequest() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("CurrentValueSubject")])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    @Test func deinitCancelsUpstreamSubscriptions() {
        let upstream = RecordingSubscription()
        do {
            let subject = CurrentValueSubject<Int, Never>(0)
            subject.send(subscription: upstream)
            let cancellable = subject.sink { _ in }
            #expect(upstream.requests == [.unlimited])
            cancellable.cancel()
        }
        #expect(upstream.cancels == 1)
    }

    @Test func sinkSeesCurrentThenNewValues() {
        let subject = CurrentValueSubject<String, Never>("a")
        let values = Log<String>()
        let cancellable = subject.sink { values.append($0) }
        subject.send("b")
        subject.value = "c"
        #expect(values.items == ["a", "b", "c"])
        #expect(subject.value == "c")
        cancellable.cancel()
    }

    @Test func keepsTheLatestValueWhileThereIsNoDemand() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 2])
        subject.send(3)
        #expect(subscriber.values == [0, 2, 3])
    }

    @Test func afterCompletionSendDoesNotChangeValueButAssignmentDoes() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.send(42)
        #expect(subject.value == 1)
        subject.value = 42
        #expect(subject.value == 42)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func lateSubscriberAfterCompletionGetsOnlyTheCompletion() {
        let subject = CurrentValueSubject<Int, TestError>(1)
        subject.send(completion: .failure(.oops))
        let subscriber = TestSubscriber<Int, TestError>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Empty"), .completion(.failure(.oops))])
    }

    @Test func settingTheValueFromInsideASinkIsDeliveredAfterward() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let values = Log<Int>()
        let cancellable = subject.sink { value in
            values.append(value)
            if value < 3 { subject.value = value + 1 }
        }
        #expect(values.items == [0, 1, 2, 3])
        #expect(subject.value == 3)
        cancellable.cancel()
    }

    @Test func concurrentSendsLeaveAConsistentValue() {
        let subject = CurrentValueSubject<Int, Never>(-1)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for i in 0..<1_000 { subject.send(thread * 1_000 + i) }
        }
        #expect(subscriber.values.count == 8_001)
        #expect(subscriber.values.contains(subject.value))
    }
}
