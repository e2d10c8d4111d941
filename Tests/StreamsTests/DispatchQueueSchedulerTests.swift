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
        let labels = Mutex<[String?]>([])
        let cancellable = [1, 2, 3].publisher
            .receive(on: queue)
            .sink(receiveCompletion: { _ in
                labels.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
                done.signal()
            }, receiveValue: { _ in
                labels.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
            })
        #expect(done.wait(timeout: Self.limit) == .success)
        #expect(labels.withLock { $0 } == Array(repeating: "receive-on", count: 4))
        cancellable.cancel()
    }

    /// On a concurrent queue, `receive(on:)` and `delay` still deliver one event at a time, in
    /// order, and the completion last: every value arrives. (A plain subscriber, with no gate
    /// of its own as `sink` has, sees any overlap.)
    @Test(arguments: ["receive(on:)", "delay"])
    func aConcurrentQueueKeepsOrderAndLosesNothing(_ name: String) {
        let count = 5_000
        let queue = DispatchQueue.global()
        let subject = PassthroughSubject<Int, Never>()
        let moved = name == "delay"
            ? subject.delay(for: .nanoseconds(1), scheduler: queue).eraseToAnyPublisher()
            : subject.receive(on: queue).eraseToAnyPublisher()
        let recorder = SerialRecorder()
        moved.subscribe(recorder)
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.done.wait(timeout: Self.limit) == .success)
        #expect(recorder.values == Array(0..<count))
        #expect(recorder.valuesAtCompletion == count)
        #expect(recorder.overlaps.overlaps == 0)
    }

    @Test func subscribeOnSubscribesOnTheQueue() {
        let queue = DispatchQueue(label: "subscribe-on")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "subscribe-on")
        let done = DispatchSemaphore(value: 0)
        let subscribedOn = Mutex<String?>(nil)
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
        let ranAt = Mutex<DispatchQueue.SchedulerTimeType?>(nil)
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
        let ticks = Mutex(0)
        let third = DispatchSemaphore(value: 0)
        let holder = Mutex<AnyCancellable?>(nil)
        // Made on the queue itself, so no tick can run before `holder` is set.
        queue.sync {
            let repeating = AnyCancellable(queue.schedule(after: queue.now, interval: .milliseconds(1)) {
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

/// Records values and the completion, counting deliveries that overlap.
private final class SerialRecorder: Subscriber, @unchecked Sendable {
    let overlaps = OverlapDetector()
    let done = DispatchSemaphore(value: 0)
    private let state = Mutex<(values: [Int], atCompletion: Int)>(([], -1))

    var values: [Int] { state.withLock { $0.values } }
    var valuesAtCompletion: Int { state.withLock { $0.atCompletion } }

    func receive(subscription: any Subscription) { subscription.request(.unlimited) }

    func receive(_ input: Int) -> Subscribers.Demand {
        overlaps.run {
            state.withLock { $0.values.append(input) }
            // A little work, so that the queue's other threads pick up the next events.
            var spin = 0
            for step in 0..<2_000 { spin &+= step }
            withExtendedLifetime(spin) {}
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        overlaps.run { state.withLock { $0.atCompletion = $0.values.count } }
        done.signal()
    }
}
