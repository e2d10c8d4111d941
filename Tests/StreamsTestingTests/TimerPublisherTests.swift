import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("timerPublisher and Publishers.Timer on virtual time")
struct TimerPublisherTests {
    @Test func ticksEveryIntervalOnceConnected() {
        let scheduler = TestScheduler()
        let ticks = Locked<[VirtualTime]>([])
        let timer = scheduler.timerPublisher(every: .seconds(1))
        let cancellable = timer.sink { instant in ticks.withLock { $0.append(instant) } }
        scheduler.advance(by: .seconds(3))
        #expect(ticks.withLock { $0 } == [], "nothing ticks before connect()")
        let connection = timer.connect()
        scheduler.advance(by: .seconds(2))
        #expect(ticks.withLock { $0 } == [4, 5].map { VirtualTime(nanoseconds: $0 * 1_000_000_000) })
        connection.cancel()
        scheduler.advance(by: .seconds(5))
        #expect(ticks.withLock { $0 }.count == 2)
        #expect(scheduler.scheduledCount == 0)
        cancellable.cancel()
    }

    @Test func interleavedTimersOnOneSchedulerFireInTimeOrder() {
        let scheduler = DispatchQueue.test
        let output = Locked<[Int]>([])
        let cancellable = Publishers.MergeMany(
            Publishers.Timer(every: .seconds(2), scheduler: scheduler)
                .autoconnect()
                .handleEvents(receiveOutput: { _ in output.withLock { $0.append(2) } }),
            Publishers.Timer(every: .seconds(3), scheduler: scheduler)
                .autoconnect()
                .handleEvents(receiveOutput: { _ in output.withLock { $0.append(3) } })
        )
        .sink { _ in }
        var seen: [[Int]] = []
        for _ in 1...7 {
            scheduler.advance(by: .seconds(1))
            seen.append(output.withLock { $0 })
        }
        #expect(
            seen == [
                // At 6 s both are due: the first one scheduled fires first.
                [], [2], [2, 3], [2, 3, 2], [2, 3, 2], [2, 3, 2, 2, 3], [2, 3, 2, 2, 3],
            ])
        cancellable.cancel()
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func cancellingTheSubscriberStopsAnAutoconnectedTimer() {
        let scheduler = DispatchQueue.test
        let count = Locked(0)
        let cancellable = Publishers.Timer(every: 1, scheduler: scheduler)
            .autoconnect()
            .sink { _ in count.withLock { $0 += 1 } }
        scheduler.advance(by: 1)
        #expect(count.withLock { $0 } == 1)
        cancellable.cancel()
        scheduler.run()
        #expect(count.withLock { $0 } == 1)
    }

    @Test func aTimerEndedByPrefixLetsRunFinish() {
        let scheduler = DispatchQueue.test
        let count = Locked(0)
        let finished = Locked(false)
        let cancellable = scheduler.timerPublisher(every: 1)
            .autoconnect()
            .prefix(3)
            .sink(receiveCompletion: { _ in finished.withLock { $0 = true } }, receiveValue: { _ in count.withLock { $0 += 1 } })
        scheduler.advance(by: 1)
        #expect(count.withLock { $0 } == 1)
        scheduler.run()
        #expect(count.withLock { $0 } == 3)
        #expect(finished.withLock { $0 })
        cancellable.cancel()
    }

    @MainActor
    @Test func aThousandTicksInOneAsyncAdvance() async {
        let scheduler = DispatchQueue.test
        let count = Locked(0)
        let cancellable = Publishers.Timer(every: .seconds(1), scheduler: scheduler)
            .autoconnect()
            .sink { _ in count.withLock { $0 += 1 } }
        await scheduler.advance(by: .seconds(1))
        #expect(count.withLock { $0 } == 1)
        await scheduler.advance(by: .seconds(1_000))
        #expect(count.withLock { $0 } == 1_001)
        cancellable.cancel()
    }
}
