import Streams
import StreamsTesting

/// The backend's answer when it is down or over its capacity: a retryable 503.
public struct ServiceUnavailable: CategorizedError, Equatable, Sendable {
    public var category: ErrorCategory { .retryable }
}

/// A backend that is down for a while and then comes back cold: its capacity grows from a fifth
/// of the normal load to one and a half times it over `warmUp`, and each second it fails every
/// call past its capacity. It counts the calls that reach it in each second.
public final class FleetBackend: @unchecked Sendable {
    let normalLoad: Int
    let down: Range<Int>
    let warmUp: Int
    /// Calls received in each second.
    public private(set) var received: [Int] = []
    /// Calls failed in each second (down, or over capacity).
    public private(set) var failed: [Int] = []

    init(normalLoad: Int, down: Range<Int>, warmUp: Int) {
        self.normalLoad = normalLoad
        self.down = down
        self.warmUp = warmUp
    }

    /// How many calls the backend serves in `second`.
    func capacity(at second: Int) -> Int {
        let full = normalLoad * 3 / 2
        guard second >= down.upperBound else { return full }
        let warmed = Double(second - down.upperBound) / Double(warmUp)
        return min(full, Int(Double(normalLoad) * (0.2 + 1.3 * warmed)))
    }

    /// One call made at `now`, answered at once.
    func call(at now: VirtualTime) -> Result<Int, ServiceUnavailable> {
        let second = Int(now.nanoseconds / 1_000_000_000)
        while received.count <= second {
            received.append(0)
            failed.append(0)
        }
        received[second] += 1
        if down.contains(second) || received[second] > capacity(at: second) {
            failed[second] += 1
            return .failure(ServiceUnavailable())
        }
        return .success(second)
    }
}
