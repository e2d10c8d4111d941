import Streams

/// A scheduler whose clock only moves when the test moves it, starting at zero.
///
/// Work scheduled for an instant runs when `advance(by:)`, `advance(to:)` or `run()` moves the
/// clock to or past it, in time order; work scheduled for the same instant runs in the order it
/// was scheduled; work scheduled while the clock advances runs in the same advance if its time
/// has come. Cancelling scheduled work removes it. Its time is a ``VirtualTime``, nanoseconds
/// since the start, and it has no options. For code typed against a `DispatchQueue`, use
/// `DispatchQueue.test`, the same scheduler with the queue's time type.
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
public typealias TestScheduler = VirtualTimeScheduler<VirtualTime, Never>

extension VirtualTimeScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// Makes a scheduler whose clock starts at zero.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// ```
    public convenience init() {
        self.init(now: VirtualTime(nanoseconds: 0))
    }
}
