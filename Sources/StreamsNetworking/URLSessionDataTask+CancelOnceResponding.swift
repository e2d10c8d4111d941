import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionDataTask {
    /// The longest wait between two looks at a task waiting for its response head.
    static let longestLookInterval = Duration.milliseconds(50)

    /// The queue the looks run on: a serial queue of its own, which Dispatch gives a thread even
    /// when the app's work occupies every thread of its global queues.
    static let lookQueue = DispatchQueue(label: "StreamsNetworking.cancelOnceResponding")

    /// Cancels this task, resumed, as soon as its response head has arrived: at once if it
    /// has, otherwise at the first look after it does (looks 1 ms apart at first, doubling up
    /// to 50 ms apart); never if it ends first, as a task answered from the URL cache, or by a
    /// `URLProtocol` of the app's, does (see `URLSession.stop(_:)`).
    ///
    /// The head is known to have arrived when `countOfBytesExpectedToReceive` is no longer zero:
    /// FoundationNetworking's HTTP protocol sets it (to the announced length, or -1 when unknown)
    /// as it parses the head, for every task, whether it reports to a completion handler or a
    /// delegate, and nothing outside FoundationNetworking can set it; `response`, by contrast, is
    /// set before the end only for tasks that report to a delegate.
    /// (It is read without the task's lock, which FoundationNetworking does not take for it: a
    /// 64-bit value read whole, which at worst reads zero a look too early.)
    ///
    /// ```swift
    /// task.resume()
    /// task.cancelOnceResponding()
    /// ```
    func cancelOnceResponding(lookingAgainAfter interval: Duration = .milliseconds(1)) {
        switch state {
        case .completed, .canceling: return
        case .running, .suspended: break
        @unknown default: return
        }
        guard countOfBytesExpectedToReceive == 0 else {
            cancel()
            return
        }
        let next = min(interval * 2, Self.longestLookInterval)
        Self.lookQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(interval / .nanoseconds(1)))) {
            self.cancelOnceResponding(lookingAgainAfter: next)
        }
    }
}
