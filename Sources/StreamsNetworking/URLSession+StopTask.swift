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
    /// process ("Trying to access a behaviour for a task that in not in the registry"): the
    /// cancel reports its failure from a block queued for later, and if the task finishes, runs
    /// its completion handler and leaves the session's registry first, that report looks the
    /// finished task up in the registry, and the lookup is fatal. Two things open that window:
    /// - a URL cache, as `URLSession.shared`, `.default` and `.ephemeral` sessions have: `resume()`
    ///   first asks the cache for the request, on another queue, and until it answers, a cancel
    ///   can only leave its report waiting for the task's protocol, to be queued whenever the
    ///   cache answers;
    /// - a `URLProtocol` of the app's (or none named, so that classes registered with
    ///   `URLProtocol.registerClass` may answer), which may end the task from any thread.
    /// With neither, an `http` or `https` task is loaded by FoundationNetworking's own protocol
    /// on the session's queue, the cancel queues its report there at once, ahead of anything
    /// that ends the task, and cancelling is safe.
    func stop(_ task: URLSessionDataTask) {
        if cancelsSafely(task) { task.cancel() }
    }

    /// Whether `task`, resumed, can be cancelled without risk: always with Apple's Foundation;
    /// with FoundationNetworking only for an HTTP task of a session with no URL cache whose
    /// protocols are all FoundationNetworking's own.
    func cancelsSafely(_ task: URLSessionDataTask) -> Bool {
        #if canImport(FoundationNetworking)
        let configuration = self.configuration
        guard configuration.urlCache == nil,
            let scheme = task.originalRequest?.url?.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let protocols = configuration.protocolClasses, !protocols.isEmpty
        else { return false }
        return protocols.allSatisfy { String(reflecting: $0).hasPrefix("FoundationNetworking.") }
        #else
        true
        #endif
    }
}
