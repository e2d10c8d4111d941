import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("Collection.amb()")
struct AmbManyTests {
    private func upstreams(_ count: Int) -> [ManualUpstream<Int, TestError>] {
        (0..<count).map { index in ManualUpstream<Int, TestError>(failure: .oops) { $0 + 100 * index } }
    }

    @Test func oneRaceSubscribesToEveryPublisherOnceAndCancelsTheLosersAtOnce() {
        let contenders = upstreams(5)
        let subscriber = TestSubscriber<Int, TestError>()
        contenders.amb().subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "Amb")
        for contender in contenders {
            #expect(contender.subscriptions.count == 1)
            #expect(contender.subscriptions.last?.requests == [.max(1)])
            #expect(String(describing: contender.subscriber!) == "Amb")
        }
        contenders[3].send(1)
        for (index, contender) in contenders.enumerated() {
            #expect(contender.subscriptions.last?.cancels == (index == 3 ? 0 : 1))
        }
        contenders[0].send(2)
        contenders[3].send(3)
        contenders[3].finish()
        #expect(subscriber.values == [301, 303])
        #expect(subscriber.completions == [.finished])
        #expect(contenders[3].subscriptions.last?.requests == [.max(1)])
    }

    @Test func aCompletionWinsTheRaceToo() {
        let contenders = upstreams(3)
        let subscriber = TestSubscriber<Int, TestError>()
        contenders.amb().subscribe(subscriber)
        contenders[1].fail()
        contenders[2].send(1)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(contenders[0].subscriptions.last?.cancels == 1)
        #expect(contenders[2].subscriptions.last?.cancels == 1)
    }

    @Test func publishersSubscribedAfterTheRaceIsDecidedAreCancelledAtOnce() {
        let later = upstreams(3)
        let subscriber = TestSubscriber<Int, TestError>()
        var contenders: [AnyPublisher<Int, TestError>] = [Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()]
        for contender in later { contenders.append(contender.eraseToAnyPublisher()) }
        contenders.amb().subscribe(subscriber)
        #expect(subscriber.values == [7])
        #expect(subscriber.completions == [.finished])
        for contender in later {
            #expect(contender.subscriptions.last?.cancels == 1)
            #expect(contender.subscriptions.last?.requests == [])
        }
    }

    @Test func everyPublisherIsSubscribedBeforeTheDownstream() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        var received: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscription.request(.unlimited)
                subjects[2].send(1)
                subjects[0].send(2)
                subjects[2].send(3)
            },
            receiveValue: { value in
                received.append(value)
                return .none
            },
            receiveCompletion: { _ in })
        subjects.amb().subscribe(subscriber)
        #expect(received == [1, 3])
    }

    @Test func theWinningValueWaitsForDemand() {
        let contenders = upstreams(3)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        contenders.amb().subscribe(subscriber)
        contenders[2].send(1)
        contenders[2].finish()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(1))
        #expect(subscriber.values == [201])
        #expect(subscriber.completions == [.finished])
    }

    @Test func cancelBeforeTheRaceCancelsEveryPublisherAndLetsGoOfTheDownstream() {
        let contenders = upstreams(4)
        weak var released: TestSubscriber<Int, TestError>?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            contenders.amb().subscribe(subscriber)
            subscriber.cancel()
            subscriber.cancel()
            for contender in contenders {
                contender.ignoresCancel = true
                contender.send(1)
            }
            #expect(subscriber.values.isEmpty)
            released = subscriber
        }
        for contender in contenders { #expect(contender.subscriptions.last?.cancels == 1) }
        #expect(released == nil)
    }

    @Test func anEmptyCollectionFinishesAtOnceAsInCombineExt() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        [Just<Int>]().amb().subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
        #expect(subscriber.values.isEmpty)
    }

    @Test func aSinglePublisherIsMirrored() {
        let subscriber = TestSubscriber<Int, Never>()
        [[1, 2, 3].publisher].amb().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completions == [.finished])
    }

    @Test func tenThousandPublishersRaceWithoutRecursionAndTheLastCanWin() {
        let subjects = (0..<10_000).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        let cancels = Locked(0)
        let contenders: [AnyPublisher<Int, Never>] = subjects.map { subject in
            subject.handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }).eraseToAnyPublisher()
        }
        contenders.amb().subscribe(subscriber)
        subjects[9_999].send(1)
        subjects[0].send(2)
        subjects[9_999].send(3)
        #expect(subscriber.values == [1, 3])
        #expect(cancels.withLock { $0 } == 9_999)
        subscriber.cancel()
        #expect(cancels.withLock { $0 } == 10_000)
    }

    @Test func ambWithOthersIsOneRaceToo() {
        let subjects = (0..<10_000).map { _ in PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        subjects[0].amb(with: subjects.dropFirst()).subscribe(subscriber)
        // One Amb subscription between the winner and the downstream, not a chain of them.
        subjects[5_000].send(1)
        subjects[5_000].send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func publishersSendingFromManyThreadsHaveOneWinner() async {
        for _ in 0..<50 {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let received = Locked<[Int]>([])
            let cancellable = subjects.amb().sink { value in received.withLock { $0.append(value) } }
            await withTaskGroup(of: Void.self) { group in
                for (index, subject) in subjects.enumerated() {
                    group.addTask { for value in 0..<50 { subject.send(index * 100 + value) } }
                }
            }
            cancellable.cancel()
            let values = received.withLock { $0 }
            #expect(!values.isEmpty)
            #expect(Set(values.map { $0 / 100 }).count == 1)
        }
    }
}
