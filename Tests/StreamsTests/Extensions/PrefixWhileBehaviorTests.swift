import Streams
import StreamsTesting
import Testing

@Suite("prefix(while:behavior:)")
struct PrefixWhileBehaviorTests {
    @Test func exclusiveStopsBeforeTheFailingValue() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 5, 1].publisher.prefix(while: { $0 < 3 }, behavior: .exclusive).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func inclusiveSendsTheFailingValueThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 5, 1].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 5])
        #expect(subscriber.completions == [.finished])
    }

    @Test func exclusiveReturnsTheErasedPublisher() {
        let subscriber = TestSubscriber<Int, Never>()
        let erased: AnyPublisher<Int, Never> = [1, 5].publisher.prefix(while: { $0 < 3 }, behavior: .exclusive)
        erased.subscribe(subscriber)
        #expect(subscriber.values == [1])
    }

    @Test func inclusiveCancelsUpstreamWhenItEnds() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(subscriber)
        upstream.send(1)
        upstream.send(4)
        upstream.send(2)
        #expect(subscriber.values == [1, 4])
        #expect(subscriber.completions == [.finished])
        #expect(upstream.subscriptions.last?.cancels == 1)
    }

    @Test func inclusiveUpstreamEndingFirst() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        subject.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .failure(.oops))
    }

    @Test func inclusivePassesDemandThrough() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(subscriber)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        upstream.send(1)
        subscriber.request(.max(2))
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(2)])
    }

    @Test func inclusiveCancel() {
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.prefix(while: { $0 < 3 }, behavior: .inclusive).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.subscriptions.last?.cancels == 1)
        upstream.send(1)
        #expect(subscriber.values.isEmpty)
    }
}
