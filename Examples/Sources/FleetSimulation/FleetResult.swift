/// What a ``FleetSimulation`` run measured.
public struct FleetResult: Sendable {
    /// The clients' strategy.
    public let strategy: FleetSimulation.Strategy
    /// The fleet's load on a healthy backend, in requests per second.
    public let normalLoad: Int
    /// The seconds in which the backend was down.
    public let down: Range<Int>
    /// Calls that reached the backend in each second.
    public let received: [Int]
    /// Calls the backend failed in each second.
    public let backendFailed: [Int]
    /// Requests that succeeded, by the second they started in.
    public let succeeded: [Int]
    /// Requests that failed, by the second they started in.
    public let failed: [Int]

    /// All calls that reached the backend.
    public var totalCalls: Int { received.reduce(0, +) }

    /// The most calls that reached the backend in one second while it was down.
    public var peakDuringOutage: Int { received[down].max() ?? 0 }

    /// The mean calls per second that reached the backend while it was down.
    public var meanDuringOutage: Double { Double(received[down].reduce(0, +)) / Double(down.count) }

    /// The most calls that reached the backend in one second in the 20 seconds after it came
    /// back, while it was recovering.
    public var peakWhileRecovering: Int {
        received[down.upperBound..<min(received.count, down.upperBound + 20)].max() ?? 0
    }

    /// Seconds from the backend's return until the first second from which it fails no call
    /// (in every later second too); nil if it never gets there.
    public var secondsToRecover: Int? {
        var recovered: Int?
        for second in (down.upperBound..<backendFailed.count).reversed() {
            guard backendFailed[second] == 0 else { break }
            recovered = second
        }
        return recovered.map { $0 - down.upperBound }
    }

    /// The share of all requests that succeeded in the end.
    public var successRate: Double {
        let ok = succeeded.reduce(0, +)
        let total = ok + failed.reduce(0, +)
        return total == 0 ? 0 : Double(ok) / Double(total)
    }

    /// `value` as a multiple of the normal load, with one decimal.
    public func multiple(_ value: Double) -> String {
        let tenths = (value / Double(normalLoad) * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)x"
    }
}
