import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StreamsResilience

extension URLRequest {
    /// This request as attempt `attempt` of a pipeline's call sends it: the attempt number in the
    /// header `header` (when you name one, so that the server's logs can tell a retry), and
    /// `timeoutInterval` shortened to the time the attempt has left (its attempt timeout, or what
    /// remains of the call's total timeout), so that the transport gives up no later than the
    /// pipeline would.
    ///
    /// ```swift
    /// let data = try await pipeline.execute(request: ResilienceRequestIdentity(request)) { attempt in
    ///     try await session.data(for: request.forAttempt(attempt, header: "X-Attempt")).0
    /// }
    /// ```
    public func forAttempt(_ attempt: ResilienceAttempt, header: String? = nil) -> URLRequest {
        var sent = self
        if let header { sent.setValue(String(attempt.number), forHTTPHeaderField: header) }
        if let left = attempt.timeLeft {
            let seconds = max(0, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            sent.timeoutInterval = Swift.min(timeoutInterval, seconds)
        }
        return sent
    }
}
