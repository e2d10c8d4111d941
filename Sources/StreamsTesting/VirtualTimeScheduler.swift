import Streams

/// A scheduler whose clock only moves when the test moves it, over any scheduler's time type.
///
/// Work scheduled for an instant runs when `advance(by:)`, `advance(to:)` or `run()` moves
/// the clock to or past it, in time order; work scheduled for the same instant runs in the order
/// it was scheduled (repeating work keeps the place it was first scheduled at); work scheduled
/// while the clock advances runs in the same advance if its time has come. Cancelling scheduled
/// work removes it. In an `async` test, `await advance(by:)` also lets the tasks it wakes from
/// `sleep(for:)` run up to their next suspension between steps.
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
public final class VirtualTimeScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
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
        let sequence: Int
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

    /// The clock, the waiting work and the bookkeeping of `async` advancing, reached only under
    /// its lock.
    @usableFromInline
    let state: LockedState<State>

    /// Makes a scheduler whose clock starts at `now`.
    ///
    /// ```swift
    /// let scheduler = TestSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1)))
    /// ```
    public init(now: SchedulerTimeType) {
        state = LockedState(State(clock: now))
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
        state.withLock { $0.clock }
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
        state.withLock { $0.jobs.count }
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
        state.withLock { $0.enqueue(at: date, interval: interval, action) }
    }

    /// Removes the job `id`, if it is still there.
    @inlinable
    func cancel(_ id: Int) {
        // The removed action is released outside the lock: what it holds may cancel other work.
        let removed = state.withLock { $0.remove(id) }
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
        while let action = state.withLock({ $0.nextAction(dueBy: instant) }) {
            action()
        }
    }

    /// Advances the clock until no work is left. Repeating work never runs out: cancel it first,
    /// or use `advance(by:)`.
    ///
    /// ```swift
    /// scheduler.run()
    /// ```
    public func run() {
        var steps = 0
        while let next = state.withLock({ $0.earliestDate }) {
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
