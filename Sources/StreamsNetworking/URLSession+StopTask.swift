import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Stops `task`, which was resumed, for a subscription that was cancelled: cancels it where
    /// that is safe, and otherwise leaves it to run to its end (its subscription drops the
    /// result and has already let the downstream go).
    ///
    /// Where URLSession lives in FoundationNetworking, cancelling a resumed task can trap the
    /// process ("Trying to access a behaviour for a task that in not in the registry") when the
    /// session has a URL cache, as `URLSession.shared`, `.default` and `.ephemeral` sessions do.
    /// There `resume()` first asks the cache for the request, on another queue, and until the
    /// cache answers, `cancel()` can only leave its failure report waiting for the task's
    /// protocol. Once the cache answers, the transfer may start and finish, the completion
    /// handler run and the task leave the session's registry before that report runs; the
    /// report then looks the finished task up in the registry, and the lookup is fatal.
    /// Without a cache the report is queued at once, on the task's own queue, ahead of
    /// anything that ends the task, and cancelling is safe.
    func stop(_ task: URLSessionDataTask) {
        if cancelsResumedTasksSafely { task.cancel() }
    }

    /// Whether a resumed task of this session can be cancelled without risk: always with
    /// Apple's Foundation; with FoundationNetworking only when the session has no URL cache.
    var cancelsResumedTasksSafely: Bool {
        #if canImport(FoundationNetworking)
        configuration.urlCache == nil
        #else
        true
        #endif
    }
}
