import Synchronization

/// Counts how often a callback was entered while another call of it was still running: the
/// check that deliveries to one subscriber are serial.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)

    /// Runs `body` between the enter and leave marks.
    func run(_ body: () -> Void = {}) {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlapCount.add(1, ordering: .relaxed)
        }
        body()
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    var overlaps: Int { overlapCount.load(ordering: .relaxed) }
}
