import Streams

extension VirtualTimeScheduler {
    /// Everything a virtual-time scheduler guards with its lock: the clock, the waiting work, and
    /// what the `async` advance watches to know when woken tasks have run.
    @usableFromInline
    struct State {
        /// The virtual time.
        @usableFromInline
        var clock: SchedulerTimeType
        /// The waiting work, earliest first: an advance with nothing due looks at one job however
        /// much work waits, and work scheduled after all the rest (the usual case) is appended.
        @usableFromInline
        var jobs: [Job] = []
        /// The order of scheduling, which breaks ties between work due at the same instant.
        @usableFromInline
        var nextSequence = 0
        /// The identity of the next job.
        @usableFromInline
        var nextID = 0
        /// Counts every change an `async` advance waits to stop: work scheduled or cancelled, a
        /// woken task running again.
        @usableFromInline
        var activity = 0
        /// Tasks resumed by work this scheduler ran that have not run yet.
        @usableFromInline
        var pendingWakes = 0

        @inlinable
        init(clock: SchedulerTimeType) {
            self.clock = clock
        }

        /// Adds a job due at `date` (now when nil), repeating every `interval` when given, and
        /// returns its identity.
        @inlinable
        mutating func enqueue(at date: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void)
            -> Int
        {
            let id = nextID
            insert(Job(id: id, date: date ?? clock, sequence: nextSequence, interval: interval, action: action))
            nextID += 1
            nextSequence += 1
            activity &+= 1
            return id
        }

        /// Removes the job `id` and returns it, if it is still there.
        @inlinable
        mutating func remove(_ id: Int) -> Job? {
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            activity &+= 1
            return jobs.remove(at: index)
        }

        /// Takes the earliest job due by `deadline`, moves the clock to it and returns its
        /// action, or, when none is due, moves the clock to `deadline` and returns nil. A
        /// repeating job is put back for its next time, with its first place in the order.
        @inlinable
        mutating func nextAction(dueBy deadline: SchedulerTimeType) -> (() -> Void)? {
            // By index: `jobs.first` would copy the job, its action included.
            guard !jobs.isEmpty, jobs[0].date <= deadline else {
                clock = max(clock, deadline)
                return nil
            }
            var job = jobs.remove(at: 0)
            clock = max(clock, job.date)
            if let interval = job.interval {
                // It keeps its place in the scheduling order: repeating work due at the same
                // instant as other work runs in the order it was first scheduled.
                job.date = job.date.advanced(by: interval)
                insert(job)
            }
            return job.action
        }

        /// Puts `job` in its place in ``jobs``: after every job that precedes it, before every job
        /// it precedes (at the end when it is the latest, else by binary search).
        @inlinable
        mutating func insert(_ job: Job) {
            // `insert(_:at:)` takes a generic path even at the end: the usual case appends.
            guard let last = jobs.indices.last, job.precedes(jobs[last]) else {
                jobs.append(job)
                return
            }
            var low = 0
            var high = last
            while low < high {
                let middle = low + (high - low) / 2
                if job.precedes(jobs[middle]) {
                    high = middle
                } else {
                    low = middle + 1
                }
            }
            jobs.insert(job, at: low)
        }

        /// When the earliest waiting job is due, if any.
        @usableFromInline
        var earliestDate: SchedulerTimeType? {
            jobs.isEmpty ? nil : jobs[0].date
        }
    }
}
