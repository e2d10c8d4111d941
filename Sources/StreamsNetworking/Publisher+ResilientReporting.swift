import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsResilience

extension Publisher {
    /// `resilient(_:for:scheduler:)`, with each response's `resilienceReport` filled: what the
    /// pipeline's stages did for the call (its attempts with their durations and errors, the
    /// waits and why, the retry budget left). The response is delivered when the call completes,
    /// so that its report is whole; a failed call's report goes to `onFailureReport`, beside the
    /// error.
    ///
    /// ```swift
    /// session.requestPublisher(for: request)
    ///     .validateResponse()
    ///     .resilientReporting(pipeline, for: request, scheduler: DispatchQueue.main)
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { page in
    ///         logger.debug("\(page.resilienceReport?.attempts.count ?? 1) attempts")
    ///     })
    /// ```
    public func resilientReporting<Value, S: Scheduler>(
        _ pipeline: ResiliencePipeline, for request: URLRequest, scheduler: S,
        onFailureReport: (@Sendable (ResilienceReport) -> Void)? = nil
    ) -> AnyPublisher<NetworkResponse<Value>, ResilienceError<Failure>>
    where Output == NetworkResponse<Value>, S.SchedulerTimeType: TimelineInstant {
        let upstream = self
        return Deferred {
            let box = ReportBox()
            return upstream.resilient(
                pipeline, scheduler: scheduler, isSafeToRepeat: SentRequest(request).isSafeToRepeat,
                request: ResilienceRequestIdentity(request),
                onReport: { report in box.store(report) }
            )
            .last()
            .handleEvents(receiveCompletion: { completion in
                guard case .failure = completion, let onFailureReport, let report = box.report else { return }
                onFailureReport(report)
            })
            .map { response in
                var reported = response
                reported.resilienceReport = box.report
                return reported
            }
        }
        .eraseToAnyPublisher()
    }
}
