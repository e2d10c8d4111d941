import Streams
import StreamsTesting
import Testing

@Suite("Just")
struct JustTests {
    @Test func sendsValueAndFinishesOnFirstRequest() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Just(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Just")])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Just"), .value(42), .completion(.finished)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [42])
    }

    @Test func cancelBeforeRequestSendsNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription("Just")])
    }

    @Test func eachSubscriberGetsTheValue() {
        let just = Just("x")
        let a = TestSubscriber<String, Never>()
        let b = TestSubscriber<String, Never>()
        just.subscribe(a)
        just.subscribe(b)
        #expect(a.values == ["x"])
        #expect(b.values == ["x"])
    }

    @Test func mirrorShowsTheValueUnlabeled() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        Just(1).subscribe(subscriber)
        let children = Mirror(reflecting: subscriber.subscription!).children
        #expect(children.map(\.label) == [nil])
        #expect(children.first?.value as? Int == 1)
    }

    @Test func equatable() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
    }

    @Test func requestingNoneTraps() async {
        await #expect(processExitsWith: .failure) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
            Just(1).subscribe(subscriber)
            subscriber.request(.none)
        }
    }
}
