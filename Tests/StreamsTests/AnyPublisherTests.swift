@testable import Streams
import StreamsTesting
import Testing

@Suite("AnyPublisher, AnySubscriber, CombineIdentifier")
struct AnyPublisherTests {
    @Test func erasedPublisherBehavesLikeTheOriginal() {
        let erased: AnyPublisher<Int, Never> = [1, 2].publisher.map { $0 * 2 }.eraseToAnyPublisher()
        let subscriber = TestSubscriber<Int, Never>()
        erased.subscribe(subscriber)
        #expect(subscriber.values == [2, 4])
        #expect(subscriber.completion == .finished)
        #expect(String(describing: erased) == "AnyPublisher")
    }

    @Test func erasingTwiceAddsNoLayer() {
        let erased = Just(1).eraseToAnyPublisher()
        let again = AnyPublisher(erased)
        #expect(erased.box === again.box)
        #expect(erased.eraseToAnyPublisher().box === erased.box)
    }

    @Test func anySubscriberKeepsIdentityAndDescription() {
        let subscriber = TestSubscriber<Int, Never>()
        let erased = AnySubscriber(subscriber)
        #expect(erased.combineIdentifier == subscriber.combineIdentifier)
        #expect(erased.description == "TestSubscriber")
        Just(3).subscribe(erased)
        #expect(subscriber.values == [3])
    }

    @Test func anySubscriberFromClosures() {
        let values = Log<Int>()
        let completions = Log<Subscribers.Completion<Never>>()
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: {
                values.append($0); return .none
            },
            receiveCompletion: { completions.append($0) })
        (1...5).publisher.subscribe(subscriber)
        #expect(values.items == [1, 2])
        #expect(completions.items.isEmpty)
        #expect(subscriber.description == "Anonymous AnySubscriber")
        #expect(subscriber.combineIdentifier != AnySubscriber<Int, Never>().combineIdentifier)
    }

    @Test func anySubscriberFromASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        [1, 2].publisher.subscribe(AnySubscriber(subject))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
    }

    @Test func combineIdentifiers() {
        let a = CombineIdentifier()
        let b = CombineIdentifier()
        #expect(a != b)
        let object = Tracked()
        #expect(CombineIdentifier(object) == CombineIdentifier(object))
        #expect(CombineIdentifier(object) != CombineIdentifier(Tracked()))
        #expect(a.description.hasPrefix("0x"))
    }
}
