import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("Event, materialize, dematerialize, values(), failures()")
struct MaterializeTests {
    typealias IntEvent = Event<Int, TestError>

    @Test func eventIsEquatableAndDescribesItself() {
        #expect(IntEvent.value(1) == .value(1))
        #expect(IntEvent.value(1) != .value(2))
        #expect(IntEvent.failure(.oops) != .finished)
        #expect("\(IntEvent.value(1))" == "value(1)")
        #expect("\(IntEvent.failure(.oops))" == "failure(oops)")
        #expect("\(IntEvent.finished)" == "finished")
        #expect(IntEvent.finished.event == .finished)
    }

    @Test func materializeWrapsValuesAndFinished() {
        let subscriber = TestSubscriber<IntEvent, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).materialize().subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription("Materialize"), .value(.value(1)), .value(.value(2)), .value(.finished), .completion(.finished),
            ])
    }

    @Test func materializeTurnsTheFailureIntoAnEvent() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<IntEvent, Never>()
        subject.materialize().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        subject.send(2)
        #expect(subscriber.values == [.value(1), .failure(.oops)])
        #expect(subscriber.completions == [.finished])
    }

    @Test func theLastEventWaitsForDemand() {
        let subscriber = TestSubscriber<IntEvent, Never>(initialDemand: .max(1))
        [1].publisher.setFailureType(to: TestError.self).materialize().subscribe(subscriber)
        #expect(subscriber.values == [.value(1)])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [.value(1), .finished])
        #expect(subscriber.completion == .finished)
    }

    @Test func theLastEventGoesWithDemandReturnedFromAValue() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<IntEvent, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.materialize().subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.other))
        #expect(subscriber.values == [.value(1), .failure(.other)])
        #expect(subscriber.completion == .finished)
    }

    @Test func materializeForwardsDemandUpstream() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<IntEvent, Never>(initialDemand: .max(2))
        upstream.materialize().subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.max(2), .max(1)])
    }

    @Test func cancelWhileTheLastEventWaitsDropsIt() {
        let subscriber = TestSubscriber<IntEvent, Never>(initialDemand: nil)
        Fail<Int, TestError>(error: .oops).materialize().subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    @Test func materializeCancelGoesUpstreamAndStopsEverything() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        upstream.ignoresCancel = true
        let subscriber = TestSubscriber<IntEvent, Never>()
        upstream.materialize().subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        upstream.send(2)
        upstream.fail()
        #expect(subscriber.values == [.value(1)])
        #expect(subscriber.completion == nil)
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func dematerializeRestoresTheStream() {
        let subscriber = TestSubscriber<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        subject.materialize().dematerialize().subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func dematerializeEndsAtTheFirstEndEventAndCancelsUpstream() {
        let upstream = ManualUpstream<IntEvent, Never>(failure: nil) { $0 == 3 ? .finished : .value($0) }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.dematerialize().subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "Dematerialize")
        upstream.send(1)
        upstream.send(3)
        upstream.send(4)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func dematerializeFinishesWhenTheUpstreamDoes() {
        let subscriber = TestSubscriber<Int, TestError>()
        [IntEvent.value(1), .value(2)].publisher.dematerialize().subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func dematerializePassesDemandThrough() {
        let upstream = ManualUpstream<IntEvent, Never>(failure: nil) { .value($0) }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.dematerialize().subscribe(subscriber)
        #expect(upstream.send(1) == .max(2))
        subscriber.request(.max(3))
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(3)])
    }

    @Test func dematerializeReadsAConformingTypeOfOnesOwn() {
        struct Logged: EventConvertible {
            var event: Event<String, TestError>
        }
        let subscriber = TestSubscriber<String, TestError>()
        [Logged(event: .value("a")), Logged(event: .failure(.other)), Logged(event: .value("b"))].publisher
            .dematerialize().subscribe(subscriber)
        #expect(subscriber.values == ["a"])
        #expect(subscriber.completion == .failure(.other))
    }

    @Test func valuesAndFailuresSplitTheEvents() {
        let events: [IntEvent] = [.value(1), .failure(.oops), .value(2), .finished]
        let values = TestSubscriber<Int, Never>()
        let failures = TestSubscriber<TestError, Never>()
        events.publisher.values().subscribe(values)
        events.publisher.failures().subscribe(failures)
        #expect(values.values == [1, 2])
        #expect(values.completion == .finished)
        #expect(failures.values == [.oops])
        #expect(failures.completion == .finished)
    }

    @Test func valuesSitsBesideTheAsyncValuesProperty() async {
        let events = [IntEvent.value(1), .value(2)].publisher
        var fromProperty: [IntEvent] = []
        for await event in events.values { fromProperty.append(event) }
        var fromMethod: [Int] = []
        for await value in events.values().values { fromMethod.append(value) }
        #expect(fromProperty == [.value(1), .value(2)])
        #expect(fromMethod == [1, 2])
    }

    @Test func droppedEventsAskForOneMore() {
        let upstream = ManualUpstream<IntEvent, Never>(failure: nil) { $0 == 0 ? .failure(.oops) : .value($0) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.values().subscribe(subscriber)
        #expect(upstream.send(0) == .max(1))
    }
}
