import Streams
import StreamsExt
import StreamsTesting
import Testing

/// The library's `async` functions that take the caller's isolation run on it throughout. A
/// hop to the global executor and back would make an actor's loop wait for a free thread of the
/// pool before it could ask upstream or schedule its wake-up (on a busy pool, seconds).
@Suite("Awaits stay on the caller's actor")
struct AwaitsOnTheCallersActorTests {
    @Test func aValuesLoopAsksForEachValueFromTheActor() async throws {
        let actor = QueueActor()
        let onActor = Log<Bool>()
        try await actor.run { _ in
            let source = [1, 2].publisher.handleEvents(receiveRequest: { _ in onActor.append(actor.isCurrent) })
            for await _ in source.values {}
            for try await _ in source.setFailureType(to: TestError.self).values {}
        }
        #expect(onActor.items == [true, true, true, true])
    }

    @Test func aSleepSchedulesItsWakeUpFromTheActor() async throws {
        let actor = QueueActor()
        let onActor = Log<Bool>()
        let immediate = ImmediateScheduler.shared
        let scheduler = AnySchedulerOf<ImmediateScheduler>(
            minimumTolerance: { immediate.minimumTolerance },
            now: { immediate.now },
            scheduleImmediately: { immediate.schedule(options: $0, $1) },
            delayed: { immediate.schedule(after: $0, tolerance: $1, options: $2, $3) },
            interval: { date, interval, tolerance, options, action in
                onActor.append(actor.isCurrent)
                return immediate.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            })
        try await actor.run { _ in
            // An immediate scheduler's time conversions all give 0: a magnitude of 1 is a wait.
            try await scheduler.sleep(for: 1)
        }
        #expect(onActor.items == [true])
    }
}
