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
    // The members below are inlinable so that the operators using the scheduler in a test run
    // code specialised for its time type: unspecialised, every job copied in or out of the list
    // goes through type metadata and temporary allocations.

    /// A piece of scheduled work.
    @usableFromInline
    struct Job {
        @usableFromInline
        let id: Int
        @usableFromInline
        var date: SchedulerTimeType
        @usableFromInline
        var sequence: Int
        @usableFromInline
        let interval: SchedulerTimeType.Stride?
        @usableFromInline
        let action: () -> Void

        @inlinable
        init(id: Int, date: SchedulerTimeType, sequence: Int, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void) {
            self.id = id
            self.date = date
            self.sequence = sequence
            self.interval = interval
            self.action = action
        }

        /// Whether this job runs before `other`: earlier, or at the same time and scheduled first.
        @inlinable
        func precedes(_ other: Job) -> Bool {
            (date, sequence) < (other.date, other.sequence)
        }
    }

    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var clock: SchedulerTimeType
    @usableFromInline
    @exclusivity(unchecked)
    var jobs: [Job] = []
    @usableFromInline
    @exclusivity(unchecked)
    var nextSequence = 0
    @usableFromInline
    @exclusivity(unchecked)
    var nextID = 0

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
    @inlinable
    public var now: SchedulerTimeType {
        lock.withLockUnchecked { clock }
    }

    /// Zero: virtual time is exact.
    ///
    /// ```swift
    /// #expect(scheduler.minimumTolerance == .zero)
    /// ```
    @inlinable
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
    @inlinable
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        enqueue(at: nil, interval: nil, action)
    }

    /// Runs `action` when the clock reaches `date` (at once on the next advance if `date` has
    /// passed). The tolerance and options are ignored.
    ///
    /// ```swift
    /// scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { print("a second in") }
    /// ```
    @inlinable
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
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(interval > .zero, "A virtual-time scheduler requires a repeating interval greater than zero")
        let id = enqueue(at: date, interval: interval, action)
        // Made here, where the time type is known, so that cancelling runs specialised code. It
        // holds the scheduler weakly: work that repeats for ever must not keep it alive.
        return AnyCancellable { [weak self] in self?.cancel(id) }
    }

    @inlinable
    @discardableResult
    func enqueue(at date: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void) -> Int {
        lock.withLockUnchecked {
            defer {
                nextID += 1
                nextSequence += 1
            }
            jobs.append(Job(id: nextID, date: date ?? clock, sequence: nextSequence, interval: interval, action: action))
            return nextID
        }
    }

    /// Removes the job `id`, if it is still there.
    @inlinable
    func cancel(_ id: Int) {
        // The removed action is released outside the lock: what it holds may cancel other work.
        let removed = lock.withLockUnchecked { () -> Job? in
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            return jobs.remove(at: index)
        }
        withExtendedLifetime(removed) {}
    }

    /// Moves the clock forward by `stride`, running the work that comes due, in order.
    ///
    /// ```swift
    /// scheduler.advance(by: .milliseconds(800))
    /// scheduler.advance()   // runs what is due now
    /// ```
    @inlinable
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock to `instant` (never backwards), running the work that comes due, in
    /// order; each piece runs with the clock at its own time.
    ///
    /// ```swift
    /// scheduler.advance(to: scheduler.now.advanced(by: .seconds(2)))
    /// ```
    @inlinable
    public func advance(to instant: SchedulerTimeType) {
        while let action = nextAction(dueBy: instant) {
            action()
        }
    }

    /// Takes the earliest job due by `deadline`, moves the clock to it and returns its action,
    /// or, when none is due, moves the clock to `deadline` and returns nil. A repeating job is
    /// put back for its next time.
    @inlinable
    func nextAction(dueBy deadline: SchedulerTimeType) -> (() -> Void)? {
        lock.withLockUnchecked { () -> (() -> Void)? in
            guard let index = jobs.indices.min(by: { jobs[$0].precedes(jobs[$1]) }), jobs[index].date <= deadline else {
                clock = max(clock, deadline)
                return nil
            }
            let date = jobs[index].date
            clock = max(clock, date)
            if let interval = jobs[index].interval {
                jobs[index].date = date.advanced(by: interval)
                jobs[index].sequence = nextSequence
                nextSequence += 1
                return jobs[index].action
            }
            return jobs.remove(at: index).action
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
        while let next = lock.withLockUnchecked({ jobs.min(by: { $0.date < $1.date })?.date }) {
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
