import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Stops `task`, which was resumed, for a subscription that was cancelled: cancels it at once
    /// where that is safe, once its response head has arrived where a cancel before could crash,
    /// and otherwise leaves it to run to its end (its subscription drops the result and has
    /// already let the downstream go).
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
    ///
    /// Either window is closed once the task's response head has arrived: the HTTP protocol
    /// that parsed it is FoundationNetworking's own (no other can set the task's
    /// `countOfBytesExpectedToReceive`, which it sets then), and it exists, so the cache has
    /// answered; a cancel then takes the same path as on a session without a cache. So any other
    /// HTTP task is cancelled once its head has arrived (at once if it has:
    /// `URLSessionDataTask.cancelOnceResponding()`), and a task that never gets one from
    /// FoundationNetworking (a response served from the cache, which makes no connection, or
    /// one a protocol of the app's answers) runs to its end.
    func stop(_ task: URLSessionDataTask) {
        if cancelsSafely(task) {
            task.cancel()
        } else if Self.isHTTP(task) {
            task.cancelOnceResponding()
        }
    }

    /// Whether `task`, resumed, can be cancelled at once without risk: always with Apple's
    /// Foundation; with FoundationNetworking only for an HTTP task of a session with no URL
    /// cache whose protocols are all FoundationNetworking's own.
    func cancelsSafely(_ task: URLSessionDataTask) -> Bool {
        #if canImport(FoundationNetworking)
        configuration.urlCache == nil && isLoadedByFoundationNetworking(task)
        #else
        true
        #endif
    }

    /// Whether `task` is an `http` or `https` task that only FoundationNetworking's own protocols
    /// can load: the session names protocols, and all are FoundationNetworking's.
    private func isLoadedByFoundationNetworking(_ task: URLSessionDataTask) -> Bool {
        guard Self.isHTTP(task), let protocols = configuration.protocolClasses, !protocols.isEmpty else { return false }
        return protocols.allSatisfy { String(reflecting: $0).hasPrefix("FoundationNetworking.") }
    }

    /// Whether `task` is an `http` or `https` task.
    private static func isHTTP(_ task: URLSessionDataTask) -> Bool {
        guard let scheme = task.originalRequest?.url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }
}
