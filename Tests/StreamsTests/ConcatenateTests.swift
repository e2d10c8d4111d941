import Streams
import StreamsTesting
import Testing

@Suite("append, prepend")
struct ConcatenateTests {
    @Test func appendValuesSequencesAndPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.append(3).append([4, 5]).append(Just(6)).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4, 5, 6])
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.subscriptionCount == 1)
        #expect(String(describing: subscriber.subscription!) == "Concatenate")
    }

    @Test func prependValuesSequencesAndPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        [5].publisher.prepend(4).prepend(2...3).prepend(Just(1)).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
    }

    @Test func demandCarriesOverToTheSuffix() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2].publisher.append([3, 4, 5]).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completion == .finished)
    }

    @Test func theSuffixIsSubscribedOnlyAfterThePrefixFinishes() {
        let prefix = PassthroughSubject<Int, Never>()
        var suffixSubscribed = false
        let subscriber = TestSubscriber<Int, Never>()
        prefix.append(
            Deferred { () -> Just<Int> in
                suffixSubscribed = true; return Just(9)
            }
        ).subscribe(subscriber)
        prefix.send(1)
        #expect(!suffixSubscribed)
        prefix.send(completion: .finished)
        #expect(suffixSubscribed)
        #expect(subscriber.values == [1, 9])
    }

    @Test func aPrefixFailureSkipsTheSuffix() {
        let subscriber = TestSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: .oops).append(1, 2).subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
    }
}
