import Streams

/// Marble diagrams: time-based tests that read like the diagrams in the documentation.
///
/// A diagram is a string in which each symbol is one tick of virtual time (one second unless
/// you pass another `tick`):
///
/// | symbol | meaning |
/// | --- | --- |
/// | `-` | a tick in which nothing happens |
/// | `a` | the value `"a"` (any character not listed here) |
/// | `(jo)` | the value `"jo"`, in one tick |
/// | `[ab]` | several events in the same tick, here `"a"` then `"b"` |
/// | `\|` | finished |
/// | `#` | failed (a source fails with `MarbleFailure`) |
/// | space | nothing: spaces do not count as ticks, use them to line diagrams up |
///
/// ```swift
/// let scheduler = TestScheduler()
/// let source = scheduler.publisher(marbles: "-a-b-----cd-----|")
/// let debounced = source.debounce(for: .seconds(2), scheduler: scheduler)
/// #expect(scheduler.marbles(of: debounced) == "-----b------d---|")
/// ```
extension VirtualTimeScheduler {
    /// A cold publisher that plays the diagram: tick 0 is the moment of subscription, and each
    /// subscription gets its own timeline.
    ///
    /// Values are sent through a `PassthroughSubject`, so a value that arrives without demand is
    /// dropped, as a subject drops it.
    ///
    /// ```swift
    /// let source = scheduler.publisher(marbles: "-a--b-|")   // "a" at 1 s, "b" at 4 s, done at 6 s
    /// ```
    public func publisher(
        marbles: String,
        tick: SchedulerTimeType.Stride = .seconds(1)
    ) -> AnyPublisher<String, MarbleFailure> {
        let diagram = MarbleDiagram(parsing: marbles)
        return Deferred { [self] in
            let subject = PassthroughSubject<String, MarbleFailure>()
            var date = now
            for events in diagram.ticks {
                if !events.isEmpty {
                    schedule(after: date, tolerance: .zero, options: nil) {
                        for event in events {
                            switch event {
                            case .value(let value): subject.send(value)
                            case .finished: subject.send(completion: .finished)
                            case .failure: subject.send(completion: .failure(MarbleFailure()))
                            }
                        }
                    }
                }
                date = date.advanced(by: tick)
            }
            return subject
        }
        .eraseToAnyPublisher()
    }

    /// Subscribes to `publisher` with unlimited demand, advances the clock one tick at a time
    /// until it completes, no work is left, or `maxTicks` have passed, cancels it, and returns
    /// what it sent as a diagram that ends at its last event.
    ///
    /// Tick 0 is now. An event that happens between two ticks is drawn at the later one. Values
    /// are drawn with their description: a one-character description as itself, a longer one in
    /// parentheses; any failure is drawn as `#`.
    ///
    /// ```swift
    /// let source = scheduler.publisher(marbles: "-a-b|")
    /// #expect(scheduler.marbles(of: source.delay(for: .seconds(2), scheduler: scheduler)) == "---a-b|")
    /// ```
    public func marbles<P: Publisher>(
        of publisher: P,
        tick: SchedulerTimeType.Stride = .seconds(1),
        maxTicks: Int = 1_000
    ) -> String {
        let recorder = MarbleRecorder()
        let cancellable = publisher.sink(
            receiveCompletion: { completion in
                switch completion {
                case .finished: recorder.record(.finished)
                case .failure: recorder.record(.failure)
                }
            },
            receiveValue: { recorder.record(.value(String(describing: $0))) })
        advance()
        while !recorder.isComplete, recorder.tick < maxTicks, scheduledCount > 0 {
            recorder.nextTick()
            advance(by: tick)
        }
        cancellable.cancel()
        return recorder.diagram.text
    }
}

/// What a pipeline under a marble test sent, tick by tick.
private final class MarbleRecorder: Sendable {
    private struct Recording {
        var ticks: [[MarbleDiagram.Event]] = [[]]
        var completed = false
    }

    private let state = LockedState(Recording())

    var tick: Int { state.withLock { $0.ticks.count - 1 } }
    var isComplete: Bool { state.withLock { $0.completed } }
    var diagram: MarbleDiagram { state.withLock { MarbleDiagram(ticks: $0.ticks) } }

    func nextTick() {
        state.withLock { $0.ticks.append([]) }
    }

    func record(_ event: MarbleDiagram.Event) {
        state.withLock {
            $0.ticks[$0.ticks.count - 1].append(event)
            if case .value = event { return }
            $0.completed = true
        }
    }
}
