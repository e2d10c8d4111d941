import Dispatch
import Streams
import StreamsTesting
import Testing

/// A scheduler whose pieces of work may run in any order, as on a concurrent queue: it runs
/// them, when told, last first.
private final class ReversingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = TestScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private var actions: [() -> Void] = []
    var now: SchedulerTimeType { .init(nanoseconds: 0) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) { actions.append(action) }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
    ) {
        actions.append(action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        fatalError("not used")
    }

    func runLastFirst() {
        while let action = actions.popLast() { action() }
    }
}

/// `receive(on:)` and `delay` on a scheduler that runs work concurrently or out of order.
@Suite("Concurrent schedulers")
struct ConcurrentSchedulerTests {
    /// Whatever order the scheduled pieces run in, the events arrive in order and the
    /// completion last.
    @Test(arguments: ["receive(on:)", "delay"])
    func outOfOrderWorkStillDeliversInOrder(_ name: String) {
        let scheduler = ReversingScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let moved =
            name == "delay"
            ? subject.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
            : subject.receive(on: scheduler).eraseToAnyPublisher()
        let recorder = SerialRecorder()
        moved.subscribe(recorder)
        for value in 0..<5 { subject.send(value) }
        subject.send(completion: .finished)
        subject.send(5)
        scheduler.runLastFirst()
        #expect(recorder.values == [0, 1, 2, 3, 4])
        #expect(recorder.valuesAtCompletion == 5)
    }

    /// On a concurrent queue, `receive(on:)` and `delay` still deliver one event at a time, in
    /// order, and the completion last: every value arrives. (A plain subscriber, with no gate
    /// of its own as `sink` has, sees any overlap.)
    @Test(arguments: ["receive(on:)", "delay"])
    func onAGlobalQueueEveryValueArrivesInOrder(_ name: String) {
        let count = 5_000
        let queue = DispatchQueue.global()
        let subject = PassthroughSubject<Int, Never>()
        let moved =
            name == "delay"
            ? subject.delay(for: .nanoseconds(1), scheduler: queue).eraseToAnyPublisher()
            : subject.receive(on: queue).eraseToAnyPublisher()
        let recorder = SerialRecorder()
        moved.subscribe(recorder)
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
        #expect(recorder.done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(recorder.values == Array(0..<count))
        #expect(recorder.valuesAtCompletion == count)
        #expect(recorder.overlaps.overlaps == 0)
    }

}

/// Records values and the completion, counting deliveries that overlap.
private final class SerialRecorder: Subscriber, @unchecked Sendable {
    let overlaps = OverlapDetector()
    let done = DispatchSemaphore(value: 0)
    private let state = Locked<(values: [Int], atCompletion: Int)>(([], -1))

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
