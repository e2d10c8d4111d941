import Streams
import StreamsTesting
import Synchronization

/// A subscription that records what is asked of it, for tests that drive a subscriber by hand.
final class RecordingSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let lock = Locked<Void>(())
    private var recordedRequests: [Subscribers.Demand] = []
    private var recordedCancels = 0

    var requests: [Subscribers.Demand] { lock.withLock { _ in recordedRequests } }
    var cancels: Int { lock.withLock { _ in recordedCancels } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { _ in recordedRequests.append(demand) }
    }

    func cancel() {
        lock.withLock { _ in recordedCancels += 1 }
    }

    var description: String { "RecordingSubscription" }
}
