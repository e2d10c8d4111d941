import Dispatch
import Streams

/// A scheduler whose clock only moves when the test moves it.
///
/// Time starts at zero. Work scheduled for an instant runs when ``advance(by:)``,
/// ``advance(to:)`` or ``run()`` moves the clock to or past it, in time order; work scheduled for
/// the same instant runs in the order it was scheduled; work scheduled while the clock advances
/// runs in the same advance if its time has come. Cancelling scheduled work removes it.
///
/// It is thread-safe: work may be scheduled from any thread. The work itself runs on the thread
/// that advances the clock, one item at a time, with no lock held.
///
/// ```swift
/// let scheduler = TestScheduler()
/// var values: [String] = []
/// let cancellable = subject
///     .debounce(for: .milliseconds(800), scheduler: scheduler)
///     .sink { values.append($0) }
/// subject.send("j"); subject.send("jo")
/// scheduler.advance(by: .milliseconds(799))   // values == []
/// scheduler.advance(by: .milliseconds(1))     // values == ["jo"]
/// ```
public final class TestScheduler: Scheduler, @unchecked Sendable {
    /// A virtual instant: nanoseconds since the scheduler was made.
    public struct SchedulerTimeType: Strideable, Hashable, Comparable, Sendable, CustomStringConvertible {
        /// A virtual interval: the same nanosecond stride as `DispatchQueue`'s, so that
        /// `.milliseconds(800)`, `.seconds(0.8)` and the literal `0.8` all work.
        public typealias Stride = DispatchQueue.SchedulerTimeType.Stride

        /// Nanoseconds since the scheduler's start.
        public let nanoseconds: Int64

        /// The instant `nanoseconds` after the start.
        ///
        /// ```swift
        /// scheduler.advance(to: .init(nanoseconds: 1_000_000_000))   // one second in
        /// ```
        public init(nanoseconds: Int64) {
            self.nanoseconds = nanoseconds
        }

        /// The distance to `other`.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(nanoseconds: other.nanoseconds) - Stride(nanoseconds: nanoseconds)
        }

        /// The instant `n` later, clamped.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(nanoseconds: (Stride(nanoseconds: nanoseconds) + n).magnitude)
        }

        /// The instant in seconds, such as `"1.25s"`.
        public var description: String {
            let seconds = Double(nanoseconds) / 1_000_000_000
            return "\(seconds)s"
        }
    }

    /// The test scheduler has no options.
    public typealias SchedulerOptions = Never

    /// A piece of scheduled work.
    private struct Job {
        let id: Int
        var date: Int64
        let sequence: Int
        let interval: Int64?
        let action: () -> Void
    }

    private let lock = Lock()
    private var clock: Int64 = 0
    private var jobs: [Job] = []
    private var nextSequence = 0
    private var nextID = 0

    /// Makes a scheduler whose clock starts at zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// ```
    public init() {}

    /// The virtual time.
    public var now: SchedulerTimeType {
        lock.withLockUnchecked { SchedulerTimeType(nanoseconds: clock) }
    }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many pieces of work are waiting (repeating work counts once).
    public var scheduledCount: Int {
        lock.withLockUnchecked { jobs.count }
    }

    /// Runs `action` at the current virtual time, the next time the clock is advanced (by any
    /// amount, including zero).
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        enqueue(at: nil, interval: nil, action)
    }

    /// Runs `action` when the clock reaches `date` (at once on the next advance if `date` has
    /// passed).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) {
        enqueue(at: date.nanoseconds, interval: nil, action)
    }

    /// Runs `action` when the clock reaches `date` and every `interval` after, until the result
    /// is cancelled.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: Never?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        precondition(interval.magnitude > 0, "TestScheduler requires a repeating interval greater than zero")
        let id = enqueue(at: date.nanoseconds, interval: interval.magnitude, action)
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
    private func enqueue(at date: Int64?, interval: Int64?, _ action: @escaping () -> Void) -> Int {
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
    /// scheduler.advance(to: .init(nanoseconds: 2_000_000_000))
    /// ```
    public func advance(to instant: SchedulerTimeType) {
        while let job = nextJob(dueBy: instant.nanoseconds) {
            job.action()
        }
    }

    /// Takes the earliest job due by `deadline` and moves the clock to it, or, when none is
    /// due, moves the clock to `deadline` and returns nil. A repeating job is put back for its
    /// next time.
    private func nextJob(dueBy deadline: Int64) -> Job? {
        lock.withLockUnchecked { () -> Job? in
            guard let index = jobs.indices.min(by: { (jobs[$0].date, jobs[$0].sequence) < (jobs[$1].date, jobs[$1].sequence) }),
                jobs[index].date <= deadline
            else {
                clock = max(clock, deadline)
                return nil
            }
            var job = jobs[index]
            clock = max(clock, job.date)
            if let interval = job.interval {
                job.date = jobs[index].date + interval
                jobs[index] = Job(id: job.id, date: job.date, sequence: nextSequence, interval: interval, action: job.action)
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
            precondition(steps <= 1_000_000, "TestScheduler.run() is still running after a million steps: is repeating work scheduled?")
            advance(to: SchedulerTimeType(nanoseconds: max(next, clock)))
        }
    }
}
