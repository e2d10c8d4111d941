import Foundation
@testable import Streams
import StreamsTesting
import Synchronization
import Testing

/// When a subject checks demand under concurrency: a `send` takes one unit of the subscriber's
/// demand the moment it arrives, before it waits for a delivery under way, and a send that finds
/// none drops its value and returns at once. The demand that the delivery under way returns
/// serves only sends that arrive after it.
///
/// Real threads, a bounded number of them; what is asserted does not depend on their timing: the
/// slow delivery returns only once every other send has either returned or is waiting in line.
@Suite struct SubjectConcurrentDemandTests {
    /// Asks for `.max(10)`; its `receive` of the value 1 runs `whileFirst` and returns `.max(5)`.
    final class SlowFirst: Subscriber, Sendable {
        typealias Input = Int
        typealias Failure = Never

        let subscription = Locked<(any Subscription)?>(nil)
        let delivered = Locked<[Int]>([])
        let whileFirst: @Sendable () -> Void

        init(whileFirst: @escaping @Sendable () -> Void) {
            self.whileFirst = whileFirst
        }

        func receive(subscription: any Subscription) {
            self.subscription.withLock { $0 = subscription }
            subscription.request(.max(10))
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            delivered.withLock { $0.append(input) }
            guard input == 1 else { return .none }
            whileFirst()
            return .max(5)
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }

    /// How many threads wait in line to deliver to the conduit.
    static func waiting(_ conduit: SubjectConduit<SlowFirst>) -> Int {
        conduit.state.withLock { $0.turn.waiters.count - $0.turn.waitersHead }
    }

    /// Runs `body(index)` for each index on a thread of its own and returns when all have.
    static func onThreads(_ indices: Range<Int>, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in indices {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    /// The subject under test, fed and subscribed to through closures.
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case passthrough, currentValue

        var testDescription: String { rawValue }
    }

    @Test(arguments: Kind.allCases)
    func aSendTakesDemandWhenItArrivesAndOneWithoutDemandDoesNotWait(kind: Kind) throws {
        let others = 99
        let passthrough = PassthroughSubject<Int, Never>()
        let currentValue = CurrentValueSubject<Int, Never>(0)
        let send: @Sendable (Int) -> Void = { value in
            switch kind {
            case .passthrough: passthrough.send(value)
            case .currentValue: currentValue.send(value)
            }
        }
        let firstStarted = DispatchSemaphore(value: 0)
        let returned = Atomic<Int>(0)
        let seenWhileFirst = Locked<(returned: Int, waiting: Int)?>(nil)
        let conduit = Locked<SubjectConduit<SlowFirst>?>(nil)
        let subscriber = SlowFirst {
            firstStarted.signal()
            // Wait until every other send has arrived: it returned (no demand) or waits in line
            // (it took a unit). The bound turns a bug into a failure rather than a hang.
            let limit = Date() + 60
            var seen = (returned: 0, waiting: 0)
            while Date() < limit {
                let waiting = conduit.withLock { $0.map(Self.waiting) } ?? 0
                seen = (returned.load(ordering: .sequentiallyConsistent), waiting)
                if seen.returned + seen.waiting == others { break }
                usleep(200)
            }
            seenWhileFirst.withLock { $0 = seen }
        }
        switch kind {
        case .passthrough: passthrough.subscribe(subscriber)
        case .currentValue: currentValue.subscribe(subscriber)
        }
        let subscription = try #require(subscriber.subscription.withLock { $0 })
        conduit.withLock { $0 = subscription as? SubjectConduit<SlowFirst> }
        try #require(conduit.withLock { $0 } != nil)
        // A current value subject has delivered its value: one unit of the ten is gone.
        let units = kind == .currentValue ? 9 : 10

        let first = DispatchGroup()
        first.enter()
        Thread {
            send(1)
            first.leave()
        }.start()
        firstStarted.wait()
        Self.onThreads(2..<(2 + others)) { value in
            send(value)
            returned.add(1, ordering: .sequentiallyConsistent)
        }
        first.wait()

        // The value 1 took a unit, as many senders as there were units left took them and
        // waited, and the rest found none and returned while the value 1 was still being
        // delivered. The five units it returned came after every send had arrived: no value
        // uses them.
        let seen = try #require(seenWhileFirst.withLock { $0 })
        #expect(seen.waiting == units - 1)
        #expect(seen.returned == others - (units - 1))
        let delivered = subscriber.delivered.withLock { $0 }
        #expect(delivered.count == 10)
        #expect(Array(delivered.prefix(11 - units)) == (kind == .currentValue ? [0, 1] : [1]))

        // A subject with a current value was left behind by the dropped values: it delivers its
        // value on the next request, not on the demand the delivery returned.
        subscription.request(.max(1))
        let after = subscriber.delivered.withLock { $0 }
        switch kind {
        case .passthrough:
            #expect(after.count == 10)
        case .currentValue:
            #expect(after.count == 11)
            #expect(after.last == currentValue.value)
        }
        subscription.cancel()
    }
}
