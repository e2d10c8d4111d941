import Streams
import StreamsTesting

/// A virtual-time scheduler that records every call an operator makes to it, with the times,
/// tolerances and options passed, so that tests can pin the exact call sequence of the time
/// operators. Work runs when the test advances the clock, as on a
/// ``TestScheduler``. Its options are strings, to tell a passed option from `nil`.
final class CallRecordingScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = String

    /// One call to the scheduler.
    enum Call: Equatable, CustomStringConvertible {
        case now
        case minimumTolerance
        case schedule(options: String?)
        case scheduleAfter(VirtualTime, tolerance: VirtualTime.Stride, options: String?)
        case scheduleRepeating(VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: String?)

        var description: String {
            switch self {
            case .now: "now"
            case .minimumTolerance: "minimumTolerance"
            case .schedule(let options): "schedule(options: \(options ?? "nil"))"
            case .scheduleAfter(let date, let tolerance, let options):
                "schedule(after: \(date), tolerance: \(tolerance.magnitude), options: \(options ?? "nil"))"
            case .scheduleRepeating(let date, let interval, let tolerance, let options):
                "schedule(after: \(date), interval: \(interval.magnitude), tolerance: \(tolerance.magnitude), options: \(options ?? "nil"))"
            }
        }
    }

    private let clock = VirtualTimeScheduler<VirtualTime, String>(now: VirtualTime(nanoseconds: 0))
    private let recorded = Locked<[Call]>([])
    private let tolerance: VirtualTime.Stride

    /// Makes a scheduler at time zero whose `minimumTolerance` is `minimumTolerance`.
    init(minimumTolerance: VirtualTime.Stride = .nanoseconds(7)) {
        tolerance = minimumTolerance
    }

    /// The calls made so far.
    var calls: [Call] { recorded.withLock { $0 } }

    /// Forgets the calls made so far.
    func clearCalls() { recorded.withLock { $0 = [] } }

    /// The calls made while `body` ran.
    func calls(during body: () -> Void) -> [Call] {
        clearCalls()
        body()
        return calls
    }

    /// Moves the clock, running what comes due (the calls the work makes are recorded too).
    func advance(by stride: VirtualTime.Stride = .zero) { clock.advance(by: stride) }

    /// Work still scheduled.
    var scheduledCount: Int { clock.scheduledCount }

    private func record(_ call: Call) { recorded.withLock { $0.append(call) } }

    var now: VirtualTime {
        record(.now)
        return clock.now
    }

    var minimumTolerance: VirtualTime.Stride {
        record(.minimumTolerance)
        return tolerance
    }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        record(.schedule(options: options))
        clock.schedule(options: options, action)
    }

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: String?, _ action: @escaping () -> Void) {
        record(.scheduleAfter(date, tolerance: tolerance, options: options))
        clock.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: String?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        record(.scheduleRepeating(date, interval: interval, tolerance: tolerance, options: options))
        return clock.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}
