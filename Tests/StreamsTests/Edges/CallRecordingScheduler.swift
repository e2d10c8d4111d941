import Streams
import StreamsTesting

/// A scheduler that records every call an operator makes to it, with the options and tolerance
/// passed, and hands the work to a virtual-time ``TestScheduler`` (``advance(by:)`` runs it).
/// Its options are plain numbers, so that a test can see which options reached the scheduler.
final class CallRecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = Int
    typealias Stride = VirtualTime.Stride

    /// One call made to the scheduler.
    enum Call: Equatable, CustomStringConvertible {
        case now
        case minimumTolerance
        case schedule(options: Int?)
        case scheduleAfter(date: VirtualTime, tolerance: Stride, options: Int?)
        case scheduleRepeating(date: VirtualTime, interval: Stride, tolerance: Stride, options: Int?)

        var description: String {
            switch self {
            case .now: "now"
            case .minimumTolerance: "minimumTolerance"
            case .schedule(let options): "schedule(options: \(options.map(String.init) ?? "nil"))"
            case .scheduleAfter(let date, let tolerance, let options):
                "schedule(after: \(date), tolerance: \(tolerance), options: \(options.map(String.init) ?? "nil"))"
            case .scheduleRepeating(let date, let interval, let tolerance, let options):
                "schedule(after: \(date), interval: \(interval), tolerance: \(tolerance), "
                    + "options: \(options.map(String.init) ?? "nil"))"
            }
        }
    }

    let base = TestScheduler()
    /// What `minimumTolerance` answers.
    let tolerance: Stride
    private let log = Locked<[Call]>([])

    init(minimumTolerance: Stride = .zero) {
        tolerance = minimumTolerance
    }

    /// Every call so far, in order.
    var calls: [Call] { log.withLock { $0 } }

    /// Forgets the calls so far.
    func clearCalls() { log.withLock { $0 = [] } }

    private func record(_ call: Call) { log.withLock { $0.append(call) } }

    var now: VirtualTime {
        record(.now)
        return base.now
    }

    var minimumTolerance: Stride {
        record(.minimumTolerance)
        return tolerance
    }

    func schedule(options: Int?, _ action: @escaping () -> Void) {
        record(.schedule(options: options))
        base.schedule(action)
    }

    func schedule(after date: VirtualTime, tolerance: Stride, options: Int?, _ action: @escaping () -> Void) {
        record(.scheduleAfter(date: date, tolerance: tolerance, options: options))
        base.schedule(after: date, tolerance: tolerance, action)
    }

    func schedule(
        after date: VirtualTime, interval: Stride, tolerance: Stride, options: Int?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        record(.scheduleRepeating(date: date, interval: interval, tolerance: tolerance, options: options))
        return base.schedule(after: date, interval: interval, tolerance: tolerance, action)
    }

    /// Runs the work due within `stride` on the underlying virtual-time scheduler.
    func advance(by stride: Stride = .zero) { base.advance(by: stride) }
}
