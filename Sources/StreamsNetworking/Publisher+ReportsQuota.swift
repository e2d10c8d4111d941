import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsResilience

extension Publisher where Failure == NetworkError {
    /// Tells `pipeline` the quota each response announces in its rate-limit headers
    /// (`ServerQuota(now:header:)`), whatever its status, at the time `scheduler` reads,
    /// so that the pipeline's `PushbackLimiter` keeps the calls within the server's quota and
    /// the client slows down before it is refused.
    ///
    /// A pipeline with pushback reads the quota by itself from the values and failures its
    /// stages see: a `NetworkResponse` (`validateResponse()`) or a `NetworkError`. Put this
    /// operator before a step that drops the headers, such as `validateStatus()` or a `map` to
    /// the body, so that successes are read too. It does nothing when the pipeline's policy has
    /// no pushback.
    ///
    /// ```swift
    /// let pipeline = registry.pipeline(forHostOf: url)
    /// let items = session.requestPublisher(for: url)
    ///     .reportsQuota(to: pipeline, scheduler: DispatchQueue.main)
    ///     .validateStatus()
    ///     .decode(type: [Item].self, decoder: JSONDecoder())
    ///     .resilient(pipeline, scheduler: DispatchQueue.main)
    /// ```
    public func reportsQuota<Value, S: Scheduler>(to pipeline: ResiliencePipeline, scheduler: S)
        -> Publishers.HandleEvents<Self>
    where Output == NetworkResponse<Value>, S.SchedulerTimeType: TimelineInstant {
        let limiter = pipeline.pushbackLimiter
        return handleEvents(receiveOutput: { response in
            guard let limiter, let quota = response.serverQuota else { return }
            limiter.reportFromCall(quota, at: scheduler.now.timelineOffset)
        })
    }
}
