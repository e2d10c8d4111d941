import Streams

/// Something that wants to know when work it runs wakes a suspended task: a virtual clock that
/// must let the task run before it moves on.
///
/// `sleep(for:)` resumes its task from the action it schedules. When that action runs with an
/// observer bound to ``SchedulerWake/observer`` (a virtual-time scheduler's `async` `advance`
/// binds itself around each action it runs), it tells the observer just before resuming the
/// task, and again from the task once it runs.
package protocol SchedulerWakeObserver: AnyObject, Sendable {
    /// A task is about to be resumed by the action running now.
    func taskWillResume()

    /// A task that ``taskWillResume()`` announced is running again.
    func taskDidResume()
}

/// Where the scheduler running an action says who observes the tasks that action wakes.
package enum SchedulerWake {
    /// The observer of the action running now on this task, if any.
    @TaskLocal package static var observer: (any SchedulerWakeObserver)?
}
