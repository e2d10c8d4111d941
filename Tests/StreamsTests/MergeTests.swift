import Dispatch
import Foundation
import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("merge")
struct MergeTests {
    @Test func interleavesValuesAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        // Two publishers of one type merge into a MergeMany, as in Combine.
        let merged: Publishers.MergeMany<PassthroughSubject<Int, Never>> = a.merge(with: b)
        merged.subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        #expect(subscriber.completion == nil)
        b.send(4)
        b.send(completion: .finished)
        #expect(
            subscriber.events == [.subscription("Merge"), .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func mergesFourToEightPublishers() {
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let (a, b, c, d, e, f, g, h) = (
            subjects[0], subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7]
        )
        let four = TestSubscriber<Int, Never>()
        let five = TestSubscriber<Int, Never>()
        let six = TestSubscriber<Int, Never>()
        let seven = TestSubscriber<Int, Never>()
        let eight = TestSubscriber<Int, Never>()
        a.merge(with: b, c, d).subscribe(four)
        a.merge(with: b, c, d, e).subscribe(five)
        a.merge(with: b, c, d, e, f).subscribe(six)
        a.merge(with: b, c, d, e, f, g).subscribe(seven)
        a.merge(with: b, c, d, e, f, g, h).subscribe(eight)
        for (index, subject) in subjects.enumerated().reversed() {
            subject.send(index)
            subject.send(completion: .finished)
        }
        #expect(four.values == [3, 2, 1, 0])
        #expect(five.values == [4, 3, 2, 1, 0])
        #expect(six.values == [5, 4, 3, 2, 1, 0])
        #expect(seven.values == [6, 5, 4, 3, 2, 1, 0])
        #expect(eight.values == [7, 6, 5, 4, 3, 2, 1, 0])
        for subscriber in [four, five, six, seven, eight] {
            #expect(subscriber.completion == .finished)
            #expect(subscriber.events.first == .subscription("Merge"))
        }
        #expect(
            Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8))
                == Publishers.Merge8(Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)))
    }

    @Test func firstFailureCancelsTheOthers() {
        let cancels = Log<Void>()
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        a.merge(with: b.handleEvents(receiveCancel: { cancels.append(()) })).subscribe(subscriber)
        a.send(completion: .failure(.oops))
        b.send(1)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == .failure(.oops))
        #expect(cancels.items.count == 1)
    }

    @Test func bufferedValuesAFailureDiscardsAreReleasedOutsideTheLock() {
        // Two values wait in merge's buffer for demand; the failure discards them. Each one's
        // deinitializer asks the merge for more: under the merge's lock that call would wait for
        // the lock its own thread holds, so the scenario runs on a thread of its own, bounded.
        let released = Locked(0)
        let finished = Self.runsToItsEnd {
            let subscriber = TestSubscriber<Token, TestError>(initialDemand: nil)
            let make: (Int) -> Token = { _ in
                Token {
                    subscriber.subscription?.request(.max(1))
                    released.withLock { $0 += 1 }
                }
            }
            let a = ManualUpstream<Token, TestError>(failure: .oops, make)
            let b = ManualUpstream<Token, TestError>(failure: .oops, make)
            a.merge(with: b).subscribe(subscriber)
            a.send(0)
            b.send(1)
            a.fail()
            withExtendedLifetime(subscriber) {}
        }
        #expect(finished)
        #expect(released.withLock { $0 } == 2)
    }

    @Test func bufferedValuesAreReleasedOutsideTheLockOnceServed() {
        // Two values wait in merge's buffer until a request; the subscriber keeps neither. When
        // the buffer is served, each value's deinitializer asks the merge for more, which under
        // the merge's lock would wait for the lock its own thread holds (bounded, as above).
        let released = Locked(0)
        let finished = Self.runsToItsEnd {
            let subscription = Locked<(any Subscription)?>(nil)
            let make: (Int) -> Token = { _ in
                Token {
                    subscription.withLock { $0 }?.request(.max(1))
                    released.withLock { $0 += 1 }
                }
            }
            let a = ManualUpstream<Token, TestError>(failure: .oops, make)
            let b = ManualUpstream<Token, TestError>(failure: .oops, make)
            let subscriber = AnySubscriber<Token, TestError>(
                receiveSubscription: { received in subscription.withLock { $0 = received } },
                receiveValue: { _ in .none }, receiveCompletion: { _ in })
            a.merge(with: b).subscribe(subscriber)
            a.send(0)
            b.send(1)
            subscription.withLock { $0 }?.request(.max(2))
            subscription.withLock { $0 }?.cancel()
        }
        #expect(finished)
        #expect(released.withLock { $0 } == 2)
    }

    @Test func valuesBeyondDemandWaitInOrder() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2].publisher.merge(with: [3, 4].publisher).subscribe(subscriber)
        // Each upstream was asked for one value: the second upstream's waits in the buffer.
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 3, 2])
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 3, 2, 4])
        #expect(subscriber.completion == .finished)
    }

    @Test func demandReturnedFromReceiveReachesTheUpstreams() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...3).publisher.merge(with: (4...6).publisher).subscribe(subscriber)
        #expect(Set(subscriber.values) == Set(1...6))
        #expect(subscriber.completion == .finished)
    }

    @Test func mergeThreeAndMany() {
        let three = TestSubscriber<Int, Never>()
        Just(1).merge(with: Just(2), Just(3)).subscribe(three)
        #expect(three.values == [1, 2, 3])
        let many = TestSubscriber<Int, Never>()
        Publishers.MergeMany([Just(1), Just(2), Just(3), Just(4)]).merge(with: Just(5)).subscribe(many)
        #expect(many.values == [1, 2, 3, 4, 5])
        let none = TestSubscriber<Int, Never>()
        Publishers.MergeMany([Just<Int>]()).subscribe(none)
        #expect(none.completion == .finished)
    }

    @Test func concurrentUpstreamsDeliverEveryValueOnceAndSerially() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let detector = OverlapDetector()
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in detector.run() })
        a.merge(with: b).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            let target = thread.isMultiple(of: 2) ? a : b
            for i in 0..<1_000 { target.send(thread * 1_000 + i) }
        }
        #expect(subscriber.values.count == 8_000)
        #expect(Set(subscriber.values).count == 8_000)
        #expect(detector.overlaps == 0)
    }

    @Test func cancelStopsEverything() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        subscriber.cancel()
        a.send(1)
        b.send(2)
        #expect(subscriber.values.isEmpty)
    }

    /// A value that runs `onDeinit` when it goes away.
    final class Token: @unchecked Sendable {
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    /// Runs `scenario` on a thread of its own; whether it ended within 20 s (a bound on a wait
    /// that would otherwise hang the suite, not a measure of speed).
    static func runsToItsEnd(_ scenario: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            scenario()
            done.signal()
        }
        return done.wait(timeout: .now() + 20) == .success
    }
}
