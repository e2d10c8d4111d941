import Dispatch

/// An actor whose jobs run on one dispatch queue, so that synchronous code (a publisher's
/// callback, a scheduler) can tell whether it runs on the actor.
actor QueueActor {
    private final class QueueExecutor: SerialExecutor {
        let queue = DispatchQueue(label: "QueueActor")
        let key = DispatchSpecificKey<Bool>()

        init() { queue.setSpecific(key: key, value: true) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    private let executor = QueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Whether the caller runs on this actor.
    nonisolated var isCurrent: Bool { DispatchQueue.getSpecific(key: executor.key) ?? false }

    /// Runs `body` on this actor.
    func run<T: Sendable>(_ body: @Sendable (isolated QueueActor) async throws -> T) async rethrows -> T {
        try await body(self)
    }
}
