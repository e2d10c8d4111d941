@testable import Streams
import StreamsTesting
import Testing

/// What a subject keeps and what it costs to let go of it: removing a subscriber does work that
/// does not grow with their number (counted, not timed) and keeps the others in subscription
/// order, and an upstream subscription that ended is let go, so that a `share()` that reconnects
/// keeps nothing of its past connections.
@Suite struct SubjectCoreTests {
    /// The most subscribers or reconnects a test here makes: 100,000, or 10,000 under
    /// ThreadSanitizer, which runs this single-threaded work about eight times slower (these two
    /// tests took 36 of its 42 seconds) and is there for races, which a smaller count shows as well.
    static let many: Int = {
        #if STREAMS_TSAN
        10_000
        #else
        100_000
        #endif
    }()

    /// A deterministic generator, so that a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The subject's removal counters.
    private func work(_ subject: PassthroughSubject<Int, Never>) -> (probes: Int, moves: Int) {
        subject.core.state.withLock { ($0.conduits.removalProbes, $0.conduits.removalMoves) }
    }

    /// The elements of `list` that were not removed.
    private func remaining<Element>(_ list: KeyedList<Element>) -> [Element] {
        zip(list.keys, list.elements).filter { $0.0 >= 0 }.map(\.1)
    }

    private func log2(_ count: Int) -> Int {
        Int.bitWidth - count.leadingZeroBitCount
    }

    // MARK: Removing subscribers

    @Test func aKeyedListKeepsTheOrderOfWhatRemains() {
        var list = KeyedList<String>(placeholder: "")
        let keys = ["a", "b", "c", "d"].map { list.append($0) }
        #expect(list.remove(keys[1]) == "b")
        #expect(list.remove(keys[1]) == nil)
        #expect(list.remove(99) == nil)
        list.append("e")
        #expect(remaining(list) == ["a", "c", "d", "e"])
        #expect(list.elements == ["a", "", "c", "d", "e"])
        #expect(list.count == 4)
        let taken = list.removeAll()
        #expect(taken == ["a", "", "c", "d", "e"])
        #expect(list.count == 0)
        #expect(list.append("f") == 5)
    }

    @Test func aKeyedListCompactsOnceEmptySlotsOutnumberElements() {
        var list = KeyedList<Int>(placeholder: -1)
        let keys = (0..<100).map { list.append($0) }
        for key in keys where key % 4 != 0 {
            #expect(list.remove(key) == key)
        }
        #expect(remaining(list) == Array(stride(from: 0, to: 100, by: 4)))
        #expect(list.elements.count < 2 * list.count + KeyedList<Int>.compactionThreshold)
        #expect(list.remove(keys[8]) == 8)
        #expect(list.remove(keys[9]) == nil)
    }

    /// Cancelling one subscriber among 100,000 used to visit and shift every other one (about
    /// 50,000 on average, 100,000 in reverse order); now it moves a constant number of elements on
    /// average and looks at no more than log2(n) + 1 to find its own.
    @Test(arguments: [10, 1000, SubjectCoreTests.many], [false, true])
    func cancellingASubscriberDoesWorkThatDoesNotGrowWithTheirNumber(count: Int, reversed: Bool) {
        let subject = PassthroughSubject<Int, Never>()
        var cancellables = (0..<count).map { _ in subject.sink { _ in } }

        // One more subscribe and cancel among them all.
        let before = work(subject)
        subject.sink { _ in }.cancel()
        let one = work(subject)
        #expect(one.probes - before.probes <= log2(count + 1) + 1)
        #expect(one.moves - before.moves == 0)

        if reversed { cancellables.reverse() }
        for cancellable in cancellables { cancellable.cancel() }
        let all = work(subject)
        let probes = all.probes - one.probes
        let moves = all.moves - one.moves
        #expect(probes <= count * (log2(count + 1) + 1))
        // Compactions move each remaining slot once, at most n + n/2 + n/4 + ... in all.
        #expect(moves <= 3 * count + KeyedList<Int>.compactionThreshold)
        #expect(subject.core.state.withLock { $0.conduits.count } == 0)
        #expect(subject.core.state.withLock { $0.conduits.elements.isEmpty })
    }

    @Test func valuesGoInSubscriptionOrderAfterRandomCancels() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var generator = SplitMix(state: 42)
        var live: [Int: AnyCancellable] = [:]
        var next = 0
        for _ in 0..<20 {
            for _ in 0..<200 {
                let index = next
                live[index] = subject.sink { _ in received.append(index) }
                next += 1
            }
            for index in live.keys.shuffled(using: &generator).prefix(live.count * 2 / 3) {
                live.removeValue(forKey: index)?.cancel()
            }
            received = []
            subject.send(0)
            #expect(received == live.keys.sorted())
        }
        #expect(subject.core.state.withLock { $0.conduits.elements.count } < 2 * live.count + KeyedList<Int>.compactionThreshold)
    }

    /// The send under way walks its snapshot: those cancelled meanwhile (enough to compact the
    /// list) miss the value, the others get it in order.
    @Test func subscribersCancelledDuringASendMissItAndTheOthersGetItInOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellables: [AnyCancellable] = []
        for index in 0..<100 {
            cancellables.append(
                subject.sink { value in
                    received.append(index)
                    if index == 10, value == 0 {
                        for other in 0..<100 where other % 10 != 0 { cancellables[other].cancel() }
                    }
                })
        }
        subject.send(0)
        #expect(received == Array(0...10) + Array(stride(from: 20, to: 100, by: 10)))
        #expect(subject.core.state.withLock { $0.conduits.elements.count } < 2 * 10 + KeyedList<Int>.compactionThreshold)
        received = []
        subject.send(1)
        #expect(received == Array(stride(from: 0, to: 100, by: 10)))
        cancellables.removeAll()
    }

    // MARK: Upstream subscriptions

    private func upstreamCount<Output>(_ subject: PassthroughSubject<Output, Never>) -> Int {
        subject.core.state.withLock { $0.upstreamSubscriptions.count }
    }

    /// Each connection of a `share()` gave the subject an upstream subscription that it kept
    /// until it went away: 100,000 of them after 100,000 reconnects. Now only the live one.
    @Test func aShareThatReconnectsKeepsOnlyItsLiveConnection() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share()
        let subject = shared.shared.upstream.subject
        for _ in 0..<Self.many {
            shared.sink { _ in }.cancel()
        }
        #expect(upstreamCount(subject) == 0)
        #expect(subject.core.state.withLock { $0.upstreamSubscriptions.elements.count } < KeyedList<Int>.compactionThreshold)

        var values: [Int] = []
        let cancellable = shared.sink { values.append($0) }
        #expect(upstreamCount(subject) == 1)
        upstream.send(1)
        #expect(values == [1])
        upstream.send(completion: .finished)
        #expect(upstreamCount(subject) == 0)
        cancellable.cancel()
    }

    @Test func aSubjectLetsGoOfAnUpstreamThatCompleted() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        #expect(subject.value == 3)
        #expect(subject.core.state.withLock { $0.upstreamSubscriptions.count } == 0)
        cancellable.cancel()
    }

    /// As in Combine, the first demand still goes to every upstream subscription the subject
    /// keeps; one that was cancelled is no longer among them.
    @Test func theFirstDemandReachesEveryLiveUpstreamButNotACancelledOne() {
        let subject = PassthroughSubject<Int, Never>()
        var requests: [String: [Subscribers.Demand]] = [:]
        func feed(_ name: String) -> AnyCancellable {
            PassthroughSubject<Int, Never>()
                .handleEvents(receiveRequest: { requests[name, default: []].append($0) })
                .subscribe(subject)
        }
        let first = feed("first")
        let second = feed("second")
        let third = feed("third")
        second.cancel()
        #expect(upstreamCount(subject) == 2)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(requests == ["first": [.unlimited], "third": [.unlimited]])
        first.cancel()
        third.cancel()
        #expect(upstreamCount(subject) == 0)
    }
}
