import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("amb")
struct AmbTests {
    @Test func theFirstToSendAValueWinsAndTheOtherIsCancelled() {
        let first = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let second = ManualUpstream<Int, TestError>(failure: .oops) { $0 * 10 }
        let subscriber = TestSubscriber<Int, TestError>()
        first.amb(second).subscribe(subscriber)
        #expect(first.subscriptions.last?.requests == [.max(1)])
        #expect(second.subscriptions.last?.requests == [.max(1)])
        second.send(1)
        first.send(2)
        second.send(3)
        #expect(subscriber.values == [10, 30])
        #expect(first.subscriptions.last?.cancels == 1)
        #expect(second.subscriptions.last?.cancels == 0)
        #expect(String(describing: subscriber.subscription!) == "Amb")
    }

    @Test func aCompletionAlsoWins() {
        let first = PassthroughSubject<Int, TestError>()
        let second = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        first.amb(second).subscribe(subscriber)
        first.send(completion: .failure(.other))
        second.send(1)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.failure(.other)])
        #expect(second.subscriptions.last?.cancels == 1)
    }

    @Test func completesAsTheWinnerDoes() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        first.amb(second).subscribe(subscriber)
        first.send(1)
        second.send(completion: .finished)
        #expect(subscriber.completion == nil)
        first.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aSynchronousFirstPublisherWinsBeforeTheSecondIsSubscribed() {
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).amb(second).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
        #expect(second.subscriptions.last?.cancels == 1)
    }

    @Test func bothAreSubscribedBeforeTheDownstreamSoWhatItsSubscriptionTriggersIsSeen() {
        // CombineExt's order: values sent from inside the downstream's `receive(subscription:)`
        // take part in the race, and the demand asked there goes to the winner.
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                subscription.request(.max(2))
                second.send(3)
                first.send(1)
                second.send(4)
                second.send(5)
            },
            receiveValue: { value in
                received.append(value)
                return .none
            },
            receiveCompletion: { _ in })
        first.amb(second).subscribe(subscriber)
        #expect(received == [3, 4])
    }

    @Test func aRaceEndedBeforeTheDownstreamIsSubscribedReachesItAfterItsSubscription() {
        let second = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        let valueThenFailure = [1].publisher.setFailureType(to: TestError.self).append(Fail(error: .other))
        valueThenFailure.amb(second).subscribe(subscriber)
        #expect(subscriber.events == [.subscription("Amb"), .completion(.failure(.other))])
        #expect(second.subscriptions.last?.cancels == 1)
        let empty = TestSubscriber<Int, TestError>(initialDemand: nil)
        Empty<Int, TestError>().amb(second).subscribe(empty)
        #expect(empty.events == [.subscription("Amb"), .completion(.finished)])
    }

    @Test func afterTheRaceTheDownstreamsDemandGoesToTheWinner() {
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        first.amb(second).subscribe(subscriber)
        #expect(first.send(1) == .max(2))
        subscriber.request(.max(4))
        #expect(first.subscriptions.last?.requests == [.max(1), .max(4)])
        #expect(second.subscriptions.last?.requests == [.max(1)])
    }

    @Test func theWinningValueWaitsForDemand() {
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        first.amb(second).subscribe(subscriber)
        second.send(7)
        #expect(subscriber.values.isEmpty)
        #expect(first.subscriptions.last?.cancels == 1)
        second.finish()
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [7])
        #expect(subscriber.completions == [.finished])
    }

    @Test func aHeldValueThenMoreDemandAsksTheWinner() {
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        first.amb(second).subscribe(subscriber)
        first.send(1)
        subscriber.request(.max(3))
        #expect(subscriber.values == [1])
        #expect(first.subscriptions.last?.requests == [.max(1), .max(2)])
    }

    @Test func aFailureDoesNotWaitForAHeldValue() {
        let first = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let second = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        first.amb(second).subscribe(subscriber)
        first.send(1)
        first.fail()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func unlimitedDemandIsAskedOnce() {
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        first.amb(second).subscribe(subscriber)
        #expect(first.send(1) == .unlimited)
        #expect(first.send(2) == .none)
        subscriber.request(.max(1))
        #expect(first.subscriptions.last?.requests == [.max(1)])
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelBeforeTheRaceCancelsBoth() {
        let first = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let second = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let subscriber = TestSubscriber<Int, Never>()
        first.amb(second).subscribe(subscriber)
        subscriber.cancel()
        #expect(first.subscriptions.last?.cancels == 1)
        #expect(second.subscriptions.last?.cancels == 1)
        first.send(1)
        #expect(subscriber.values.isEmpty)
    }

    @Test func cancelFromInsideTheDownstreamStopsTheWinner() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        cancellable = first.amb(second).sink { value in
            received.append(value)
            cancellable?.cancel()
        }
        second.send(1)
        second.send(2)
        #expect(received == [1])
        _ = cancellable
    }

    @Test func theCollectionVariantsRaceEveryPublisher() {
        let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let all = TestSubscriber<Int, Never>()
        let with = TestSubscriber<Int, Never>()
        subjects.amb().subscribe(all)
        subjects[0].amb(with: subjects[1], subjects[2], subjects[3]).subscribe(with)
        subjects[2].send(5)
        subjects[1].send(6)
        subjects[2].send(7)
        #expect(all.values == [5, 7])
        #expect(with.values == [5, 7])
        let empty = TestSubscriber<Int, Never>()
        [PassthroughSubject<Int, Never>]().amb().subscribe(empty)
        #expect(empty.completions == [.finished])
    }

    @Test func theTypeIsSpelledAsInCombineExt() {
        let first = PassthroughSubject<Int, Never>()
        let amb: Publishers.Amb<PassthroughSubject<Int, Never>, Just<Int>> = first.amb(Just(1))
        #expect(amb.second.output == 1)
    }

    @Test func racingFromTwoThreadsHasOneWinner() async {
        for _ in 0..<50 {
            let first = PassthroughSubject<Int, Never>()
            let second = PassthroughSubject<Int, Never>()
            let received = Locked<[Int]>([])
            let cancellable = first.amb(second).sink { value in received.withLock { $0.append(value) } }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for value in 0..<100 { first.send(value) } }
                group.addTask { for value in 100..<200 { second.send(value) } }
            }
            cancellable.cancel()
            let values = received.withLock { $0 }
            #expect(values.allSatisfy { $0 < 100 } || values.allSatisfy { $0 >= 100 })
            #expect(!values.isEmpty)
        }
    }
}
