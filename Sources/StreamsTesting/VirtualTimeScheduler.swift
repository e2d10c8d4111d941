import Streams

/// A scheduler whose clock only moves when the test moves it, over any scheduler's time type.
///
/// Work scheduled for an instant runs when ``advance(by:)``, ``advance(to:)`` or ``run()`` moves
/// the clock to or past it, in time order; work scheduled for the same instant runs in the order
/// it was scheduled; work scheduled while the clock advances runs in the same advance if its
/// time has come. Cancelling scheduled work removes it.
///
/// It is thread-safe: work may be scheduled from any thread. The work itself runs on the thread
/// that advances the clock, one item at a time, with no lock held.
///
/// You rarely name this type. `TestScheduler` is the virtual-time scheduler with its own clock
/// starting at zero; `DispatchQueue.test` (a `TestSchedulerOf<DispatchQueue>`) has
/// `DispatchQueue`'s time and options, so that code typed against a queue, such as a view model
/// taking an `AnySchedulerOf<DispatchQueue>`, runs on virtual time in a test:
///
/// ```swift
/// let queue = DispatchQueue.test
/// let model = SearchModel(scheduler: queue.eraseToAnyScheduler())
/// model.query = "swift"
/// queue.advance(by: .milliseconds(300))   // the debounced search runs now
/// ```
public final class VirtualTimeScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    /// A piece of scheduled work.
    private struct Job {
        let id: Int
        var date: SchedulerTimeType
        var sequence: Int
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
    }

    private let lock = Lock()
    private var clock: SchedulerTimeType
    private var jobs: [Job] = []
    private var nextSequence = 0
    private var nextID = 0

    /// Makes a scheduler whose clock starts at `now`.
    ///
    /// ```swift
    /// let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1)))
    /// ```
    public init(now: SchedulerTimeType) {
        clock = now
    }

    /// The virtual time.
    ///
    /// ```swift
    /// let start = scheduler.now
    /// scheduler.advance(by: .seconds(1))
    /// #expect(scheduler.now == start.advanced(by: .seconds(1)))
    /// ```
    public var now: SchedulerTimeType {
        lock.withLockUnchecked { clock }
    }

    /// Zero: virtual time is exact.
    ///
    /// ```swift
    /// #expect(scheduler.minimumTolerance == .zero)
    /// ```
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many pieces of work are waiting (repeating work counts once).
    ///
    /// ```swift
    /// scheduler.schedule { print("soon") }
    /// #expect(scheduler.scheduledCount == 1)
    /// ```
    public var scheduledCount: Int {
        lock.withLockUnchecked { jobs.count }
    }

    /// Runs `action` at the current virtual time, the next time the clock is advanced (by any
    /// amount, including zero). The options are ignored.
    ///
    /// ```swift
    /// scheduler.schedule { print("on the next advance") }
    /// ```
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: nil, interval: nil, action)
    }

    /// Runs `action` when the clock reaches `date` (at once on the next advance if `date` has
    /// passed). The tolerance and options are ignored.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("a second in") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        enqueue(at: date, interval: nil, action)
    }

    /// Runs `action` when the clock reaches `date` and every `interval` after, until the result
    /// is cancelled. The interval must be greater than zero.
    ///
    /// ```swift
    /// let ticking = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { print("tick") }
    /// ```
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "A virtual-time scheduler requires a repeating interval greater than zero")
        let id = enqueue(at: date, interval: interval, action)
        return AnyCancellable { [weak self] in
            guard let self else { return }
            // The removed action is released outside the lock: what it holds may cancel other work.
            let removed = lock.withLockUnchecked { () -> [Job] in
                defer { jobs.removeAll { $0.id == id } }
                return jobs.filter { $0.id == id }
            }
            withExtendedLifetime(removed) {}
        }
    }

    @discardableResult
    private func enqueue(at date: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void) -> Int
    {
        lock.withLockUnchecked {
            defer {
                nextID += 1
                nextSequence += 1
            }
            jobs.append(Job(id: nextID, date: date ?? clock, sequence: nextSequence, interval: interval, action: action))
            return nextID
        }
    }

    /// Moves the clock forward by `stride`, running the work that comes due, in order.
    ///
    /// ```swift
    /// scheduler.advance(by: .milliseconds(800))
    /// scheduler.advance()   // runs what is due now
    /// ```
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant` (never backwards), running the work that comes due, in
    /// order; each piece runs with the clock at its own time.
    ///
    /// ```swift
    /// scheduler.advance(to: scheduler.now.advanced(by: .seconds(2)))
    /// ```
    public func advance(to instant: SchedulerTimeType) {
        while let job = nextJob(dueBy: instant) {
            job.action()
        }
    }

    /// Takes the earliest job due by `deadline` and moves the clock to it, or, when none is
    /// due, moves the clock to `deadline` and returns nil. A repeating job is put back for its
    /// next time.
    private func nextJob(dueBy deadline: SchedulerTimeType) -> Job? {
        lock.withLockUnchecked { () -> Job? in
            guard let index = jobs.indices.min(by: { (jobs[$0].date, jobs[$0].sequence) < (jobs[$1].date, jobs[$1].sequence) }),
                jobs[index].date <= deadline
            else {
                clock = max(clock, deadline)
                return nil
            }
            let job = jobs[index]
            clock = max(clock, job.date)
            if let interval = job.interval {
                jobs[index].date = job.date.advanced(by: interval)
                jobs[index].sequence = nextSequence
                nextSequence += 1
            } else {
                jobs.remove(at: index)
            }
            return job
        }
    }

    /// Advances the clock until no work is left. Repeating work never runs out: cancel it first,
    /// or use ``advance(by:)``.
    ///
    /// ```swift
    /// scheduler.run()
    /// ```
    public func run() {
        var steps = 0
        while let next = lock.withLockUnchecked({ jobs.map(\.date).min() }) {
            steps += 1
            precondition(
                steps <= 1_000_000,
                "A virtual-time scheduler's run() is still running after a million steps: is repeating work scheduled?")
            advance(to: max(next, now))
        }
    }
}

/// The virtual-time scheduler with the time and options of the scheduler `S`.
///
/// ```swift
/// let queue: TestSchedulerOf<DispatchQueue> = .test
/// ```
public typealias TestSchedulerOf<S: Scheduler> = VirtualTimeScheduler<S.SchedulerTimeType, S.SchedulerOptions>
