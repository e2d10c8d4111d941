import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("combineLatest, zip")
struct CombineLatestTests {
    @Test func combineLatestWaitsForEveryUpstreamThenSendsLatest() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        var pairs: [String] = []
        let cancellable = a.combineLatest(b).sink { pairs.append("\($0)\($1)") }
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(pairs == ["2x", "3x", "3y"])
        cancellable.cancel()
    }

    @Test func combineLatestFinishesWhenAllFinishAndFailsOnAnyFailure() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        a.combineLatest(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(3)
        b.send(completion: .finished)
        #expect(subscriber.values == [3, 4])
        #expect(subscriber.completion == .finished)

        let failing = TestSubscriber<(Int, Int), TestError>()
        let c = PassthroughSubject<Int, TestError>()
        c.combineLatest(PassthroughSubject<Int, TestError>()).subscribe(failing)
        c.send(completion: .failure(.oops))
        #expect(failing.completion == .failure(.oops))
    }

    @Test func combineLatestPassesDemandToEveryUpstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.combineLatest(b) { $0 * 10 + $1 }.subscribe(subscriber)
        a.send(1)
        b.send(1)
        // Each upstream was asked for one value, so the subject drops a's 2.
        a.send(2)
        #expect(subscriber.values == [11])
        subscriber.request(.max(1))
        b.send(2)
        #expect(subscriber.values == [11, 12])
    }

    @Test func combineLatestOfThree() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(subscriber)
        a.send(1)
        b.send(10)
        c.send(100)
        b.send(20)
        #expect(subscriber.values == [111, 121])
        #expect(subscriber.events.first == .subscription("CombineLatest"))
    }

    @Test func combineLatestOfFour() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, TestError>()
        let tuples = TestSubscriber<Int, TestError>()
        a.setFailureType(to: TestError.self)
            .combineLatest(b.setFailureType(to: TestError.self), c.setFailureType(to: TestError.self), d)
            .map { $0 + $1 + $2 + $3 }
            .subscribe(tuples)
        a.send(1)
        b.send(10)
        c.send(100)
        #expect(tuples.values.isEmpty)
        d.send(1000)
        a.send(2)
        d.send(completion: .failure(.oops))
        #expect(tuples.values == [1111, 1112])
        #expect(tuples.completion == .failure(.oops))

        let transformed = TestSubscriber<String, Never>()
        Just(1).combineLatest(Just("a"), Just(true), Just(2.5)) { "\($0)\($1)\($2)\($3)" }.subscribe(transformed)
        #expect(transformed.values == ["1atrue2.5"])
        #expect(transformed.completion == .finished)
    }

    @Test func zipPairsInOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        var pairs: [String] = []
        let cancellable = a.zip(b).sink { pairs.append("\($0)\($1)") }
        a.send(1)
        a.send(2)
        b.send("x")
        b.send("y")
        b.send("z")
        a.send(3)
        #expect(pairs == ["1x", "2y", "3z"])
        cancellable.cancel()
    }

    @Test func zipFinishesWhenAFinishedUpstreamHasNothingLeft() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.zip(b) { $0 + $1 }.subscribe(subscriber)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(10)
        #expect(subscriber.completion == nil)
        b.send(20)
        #expect(subscriber.values == [11, 22])
        #expect(subscriber.completion == .finished)
    }

    @Test func zipOfThreeSequencesAndDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.zip([10, 20].publisher, [100, 200, 300].publisher) { $0 + $1 + $2 }.subscribe(subscriber)
        #expect(subscriber.values == [111])
        subscriber.request(.max(5))
        #expect(subscriber.values == [111, 222])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.events.first == .subscription("Zip"))
    }

    @Test func zipOfFourSequencesAndDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher
            .zip([10, 20].publisher, [100, 200, 300].publisher, [1000, 2000, 3000].publisher) { $0 + $1 + $2 + $3 }
            .subscribe(subscriber)
        #expect(subscriber.values == [1111])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1111, 2222])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.events.first == .subscription("Zip"))

        let tuples = TestSubscriber<String, Never>()
        Publishers.Zip4(Just(1), Just("a"), Just(true), Just(2.5)).map { "\($0)\($1)\($2)\($3)" }.subscribe(tuples)
        #expect(tuples.values == ["1atrue2.5"])
    }

    @Test func cancelStopsCombining() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        subscriber.cancel()
        b.send(2)
        #expect(subscriber.values.isEmpty)
    }

    // MARK: Values let go outside the lock

    // Each scenario's tokens ask the combination for more when they are let go: under its lock
    // that call would wait for the lock its own thread holds (or trap), so each runs on a thread
    // of its own, bounded (MergeTests.runsToItsEnd).

    typealias Token = MergeTests.Token

    /// A subscriber that keeps nothing it is sent and asks for `initial`.
    static func forgetful<Input, Failure: Error>(
        _ subscription: Locked<(any Subscription)?>, initial: Subscribers.Demand
    ) -> AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { received in
                subscription.withLock { $0 = received }
                if initial > 0 { received.request(initial) }
            },
            receiveValue: { _ in .none }, receiveCompletion: { _ in })
    }

    /// A token that, when let go, asks `subscription` for one more value and counts itself in
    /// `released`.
    static func callingBack(_ subscription: Locked<(any Subscription)?>, _ released: Locked<Int>) -> Token {
        Token {
            subscription.withLock { $0 }?.request(.max(1))
            released.withLock { $0 += 1 }
        }
    }

    @Test func aReplacedLatestValueIsReleasedOutsideTheLock() {
        let released = Locked(0)
        let finished = MergeTests.runsToItsEnd {
            let subscription = Locked<(any Subscription)?>(nil)
            let a = PassthroughSubject<Token, Never>()
            let b = PassthroughSubject<Int, Never>()
            a.combineLatest(b).subscribe(Self.forgetful(subscription, initial: .unlimited))
            a.send(Self.callingBack(subscription, released))
            b.send(1)
            a.send(Self.callingBack(subscription, released))  // replaces the first
            #expect(released.withLock { $0 } == 1)
            // A cancel lets go of the latest values after the lock too.
            subscription.withLock { $0 }?.cancel()
            #expect(released.withLock { $0 } == 2)
        }
        #expect(finished)
    }

    @Test func zipsQueuedValuesAFailureDiscardsAreReleasedOutsideTheLock() {
        let released = Locked(0)
        let finished = MergeTests.runsToItsEnd {
            let subscription = Locked<(any Subscription)?>(nil)
            let a = PassthroughSubject<Token, TestError>()
            let b = PassthroughSubject<Token, TestError>()
            a.zip(b).subscribe(Self.forgetful(subscription, initial: .unlimited))
            a.send(Self.callingBack(subscription, released))
            a.send(Self.callingBack(subscription, released))
            b.send(completion: .failure(.oops))  // discards a's two queued values
            #expect(released.withLock { $0 } == 2)
        }
        #expect(finished)
    }

    @Test func aCollectionsReplacedLatestValueIsReleasedOutsideTheLock() {
        let released = Locked(0)
        let finished = MergeTests.runsToItsEnd {
            let subscription = Locked<(any Subscription)?>(nil)
            let subjects = [PassthroughSubject<Token, Never>(), PassthroughSubject<Token, Never>()]
            subjects.combineLatest().subscribe(Self.forgetful(subscription, initial: .unlimited))
            subjects[0].send(Self.callingBack(subscription, released))
            // Replaces the first before every upstream has sent one...
            subjects[0].send(Self.callingBack(subscription, released))
            #expect(released.withLock { $0 } == 1)
            subjects[1].send(Self.callingBack(subscription, released))
            // ... and the second once the values are complete.
            subjects[0].send(Self.callingBack(subscription, released))
            #expect(released.withLock { $0 } == 2)
            subscription.withLock { $0 }?.cancel()
        }
        #expect(finished)
    }
}
