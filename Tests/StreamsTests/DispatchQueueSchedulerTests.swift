import Dispatch
import Streams
import StreamsTesting
import Synchronization
import Testing

/// A few checks on real queues. They wait for events with semaphores (with a generous limit so a
/// bug fails instead of hanging) and assert what happened, never how long it took.
@Suite("DispatchQueue as a Scheduler")
struct DispatchQueueSchedulerTests {
    static var limit: DispatchTime { .now() + .seconds(30) }

    @Test func receiveOnDeliversOnTheQueue() {
        let queue = DispatchQueue(label: "receive-on")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "receive-on")
        let done = DispatchSemaphore(value: 0)
        let labels = Locked<[String?]>([])
        let cancellable = [1, 2, 3].publisher
            .receive(on: queue)
            .sink(
                receiveCompletion: { _ in
                    labels.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
                    done.signal()
                },
                receiveValue: { _ in
                    labels.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
                })
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(labels.withLock { $0 } == Array(repeating: "receive-on", count: 4))
        cancellable.cancel()
    }

    @Test func subscribeOnSubscribesOnTheQueue() {
        let queue = DispatchQueue(label: "subscribe-on")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "subscribe-on")
        let done = DispatchSemaphore(value: 0)
        let subscribedOn = Locked<String?>(nil)
        let cancellable = Deferred { () -> Just<Int> in
            subscribedOn.withLock { $0 = DispatchQueue.getSpecific(key: key) }
            return Just(1)
        }
        .subscribe(on: queue)
        .sink { _ in done.signal() }
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(subscribedOn.withLock { $0 } == "subscribe-on")
        cancellable.cancel()
    }

    @Test func scheduleAfterRunsNoEarlierThanTheDate() {
        let queue = DispatchQueue(label: "after")
        let done = DispatchSemaphore(value: 0)
        let ranAt = Locked<DispatchQueue.SchedulerTimeType?>(nil)
        let date = queue.now.advanced(by: .milliseconds(20))
        queue.schedule(after: date) {
            ranAt.withLock { $0 = queue.now }
            done.signal()
        }
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(ranAt.withLock { $0 }.map { $0 >= date } == true)
    }

    @Test func cancellingARepeatingScheduleStopsIt() {
        let queue = DispatchQueue(label: "repeating")
        let ticks = Locked(0)
        let third = DispatchSemaphore(value: 0)
        let holder = Locked<AnyCancellable?>(nil)
        // Made on the queue itself, so no tick can run before `holder` is set.
        queue.sync {
            let repeating = AnyCancellable(
                queue.schedule(after: queue.now, interval: .milliseconds(1)) {
                    let count = ticks.withLock { count in
                        count += 1
                        return count
                    }
                    if count == 3 {
                        holder.withLock { $0?.cancel() }
                        third.signal()
                    }
                })
            holder.withLock { $0 = repeating }
        }
        #expect(third.wait(timeout: Self.limit) == .success)
        // A block queued after the cancel runs after any handler that could still be queued.
        let drained = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { drained.signal() }
        #expect(drained.wait(timeout: Self.limit) == .success)
        #expect(ticks.withLock { $0 } == 3)
    }

    @Test func strideConversionsClamp() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.milliseconds(Int.min).magnitude == .min)
        #expect(Stride.seconds(1.5).magnitude == 1_500_000_000)
        #expect(Stride(.microseconds(3)).magnitude == 3_000)
        #expect((Stride.seconds(1) * Stride.seconds(1)) == .zero)
        #expect(Stride.seconds(1) + .milliseconds(500) == 1.5)
    }
}
