import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsResilience

extension Publisher {
    /// `resilient(_:scheduler:isSafeToRepeat:request:)` for the publisher of `request`: whether
    /// the request may be sent again after a timeout, and hedged, comes from its method and
    /// `Idempotency-Key` (`SentRequest(request).isSafeToRepeat`), and every event of each call
    /// names its method and origin (`ResilienceRequestIdentity(request)`), never its path,
    /// query or credentials.
    ///
    /// ```swift
    /// let charge = session.requestPublisher(for: post)
    ///     .validateStatus()
    ///     .resilient(registry.pipeline(forHostOf: post.url!), for: post, scheduler: DispatchQueue.main)
    /// ```
    public func resilient<S: Scheduler>(
        _ pipeline: ResiliencePipeline, for request: URLRequest, scheduler: S
    ) -> Publishers.Resilient<Self, S> where S.SchedulerTimeType: TimelineInstant {
        resilient(
            pipeline, scheduler: scheduler, isSafeToRepeat: SentRequest(request).isSafeToRepeat,
            request: ResilienceRequestIdentity(request))
    }
}
