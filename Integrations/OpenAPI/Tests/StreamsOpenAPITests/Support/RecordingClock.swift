import StreamsResilience
import Synchronization

/// Virtual time for the middleware's tests: the clock stands still until something sleeps on it;
/// a sleep then moves it to the sleep's end at once and is recorded. A parking clock instead
/// holds each sleep until its task is cancelled (after recording it and telling `sleepStarted`),
/// for the tests that cancel a call during a wait.
final class RecordingClock: Clock, Sendable {
    /// A point on the clock's time line: the time slept since it started.
    struct Instant: InstantProtocol, TimelineInstant {
        let offset: Duration

        var timelineOffset: Duration { offset }

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        func duration(to other: Instant) -> Duration { other.offset - offset }

        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct State {
        var now = Duration.zero
        var sleeps: [Duration] = []
    }

    private let state = Mutex(State())
    private let parks: Bool
    private let started: AsyncStream<Duration>.Continuation
    /// Each sleep's length, as it starts.
    let sleepStarted: AsyncStream<Duration>

    init(parks: Bool = false) {
        self.parks = parks
        (sleepStarted, started) = AsyncStream.makeStream()
    }

    var now: Instant { Instant(offset: state.withLock { $0.now }) }

    var minimumResolution: Duration { .zero }

    /// The sleeps so far, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        let length = state.withLock { state in
            let length = max(deadline.offset - state.now, .zero)
            state.sleeps.append(length)
            if !parks { state.now += length }
            return length
        }
        started.yield(length)
        guard parks else { return }
        // Held until the task is cancelled; the day is never reached.
        try await Task.sleep(for: .seconds(86_400))
    }
}
