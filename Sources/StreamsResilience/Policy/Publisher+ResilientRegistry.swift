import Streams

extension Publisher {
    /// `resilient(_:scheduler:isSafeToRepeat:)` with the pipeline of `key` in `registry`, looked
    /// up when each subscription starts: a call follows the key's policy as it stands when the
    /// call starts, so that ``ResilienceRegistry/replacePolicy(_:for:)`` applies to every call
    /// that starts afterwards, while the calls in flight keep their pipeline.
    ///
    /// ```swift
    /// let registry = ResilienceRegistry(policy: .standardHTTP)
    /// let user = Deferred { api.user(id) }
    ///     .resilient(registry, key: "api.example.com", scheduler: DispatchQueue.main)
    /// ```
    @inlinable
    public func resilient<S: Scheduler>(
        _ registry: ResilienceRegistry, key: String, scheduler: S, isSafeToRepeat: Bool = true
    ) -> Deferred<Publishers.Resilient<Self, S>> where S.SchedulerTimeType: TimelineInstant {
        Deferred {
            Publishers.Resilient(
                upstream: self, pipeline: registry.pipeline(for: key), scheduler: scheduler, isSafeToRepeat: isSafeToRepeat)
        }
    }
}
