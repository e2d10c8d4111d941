import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// The task delegate through which a request publisher's task asks what to do with a redirect:
/// it applies the ``RedirectPolicy`` and remembers a refusal, which the subscription reports
/// instead of the redirect response that the task then ends with.
///
/// Foundation's URLSession copies every header of the redirected request into the next one,
/// whatever the origin (FoundationNetworking on Linux as well), so the policy's answer is the
/// only thing that keeps credentials from another origin. A task delegate, rather than the
/// session's, leaves the session of the app's and its delegate as they are; the session's
/// delegate still gets every other callback.
final class RedirectDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let policy: RedirectPolicy
    /// The error of a redirect the policy refused, once there is one.
    private let refused = LockedState<NetworkError?>(nil)

    init(policy: RedirectPolicy) {
        self.policy = policy
    }

    /// The error of the redirect the policy refused, if it refused one.
    var refusal: NetworkError? { refused.withLock { $0 } }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        switch policy.decision(for: RedirectPolicy.Redirect(response: response, request: request)) {
        case .follow(let request):
            completionHandler(request)
        case .deliverRedirectResponse:
            completionHandler(nil)
        case .refuse(let error):
            refused.withLock { $0 = error }
            completionHandler(nil)
        }
    }
}
