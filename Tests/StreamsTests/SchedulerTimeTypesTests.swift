import Foundation
import Streams
import Testing

/// Code can extend each scheduler's time type separately, as with Combine.
protocol SchedulerName {
    static var schedulerName: String { get }
}

extension RunLoop.SchedulerTimeType: SchedulerName {
    static var schedulerName: String { "RunLoop" }
}

extension OperationQueue.SchedulerTimeType: SchedulerName {
    static var schedulerName: String { "OperationQueue" }
}

extension RunLoop.SchedulerTimeType.Stride: SchedulerName {
    static var schedulerName: String { "RunLoop stride" }
}

extension OperationQueue.SchedulerTimeType.Stride: SchedulerName {
    static var schedulerName: String { "OperationQueue stride" }
}

extension ImmediateScheduler.SchedulerTimeType.Stride: SchedulerName {
    static var schedulerName: String { "ImmediateScheduler stride" }
}

@Suite("Scheduler time types as Combine declares them")
struct SchedulerTimeTypesTests {
    @Test func runLoopAndOperationQueueHaveTimeTypesOfTheirOwn() {
        #expect(RunLoop.SchedulerTimeType.schedulerName == "RunLoop")
        #expect(OperationQueue.SchedulerTimeType.schedulerName == "OperationQueue")
        #expect(RunLoop.SchedulerTimeType.Stride.schedulerName == "RunLoop stride")
        #expect(OperationQueue.SchedulerTimeType.Stride.schedulerName == "OperationQueue stride")
        #expect(ImmediateScheduler.SchedulerTimeType.Stride.schedulerName == "ImmediateScheduler stride")
    }

    @Test func dateStridesAreSeconds() throws {
        let integer: RunLoop.SchedulerTimeType.Stride = 2
        let float: OperationQueue.SchedulerTimeType.Stride = 1.5
        #expect(integer.magnitude == 2 && float.timeInterval == 1.5)
        #expect(RunLoop.SchedulerTimeType.Stride(exactly: 3 as UInt8)?.magnitude == 3)
        #expect(OperationQueue.SchedulerTimeType.Stride.milliseconds(250).timeInterval == 0.25)
        #expect((integer * 3).magnitude == 6 && (integer - 0.5).magnitude == 1.5)
        let start = OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 10))
        #expect(start.advanced(by: .seconds(5)).date == Date(timeIntervalSinceReferenceDate: 15))
        #expect(start.distance(to: start.advanced(by: 2)) == 2)
        let data = try JSONEncoder().encode(RunLoop.SchedulerTimeType.Stride(0.5))
        #expect(try JSONDecoder().decode(RunLoop.SchedulerTimeType.Stride.self, from: data) == 0.5)
    }

    @Test func immediateTimeNeverMoves() {
        let now = ImmediateScheduler.shared.now
        #expect(now.advanced(by: 100) == now)
        #expect(now.distance(to: now.advanced(by: -3)) == 0)
        #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    }

    @Test func immediateStrideIsAPlainCount() throws {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        let truncated: Stride = 14.6
        let negative: Stride = -4.1
        #expect(truncated.magnitude == 14 && negative.magnitude == -4)
        let magnitude: Int = Stride(7).magnitude
        #expect(magnitude == 7)
        #expect(Stride(exactly: UInt64.max) == nil && Stride(exactly: 9 as UInt64) == Stride(9))
        #expect(
            [Stride.seconds(5), .seconds(2.5), .milliseconds(3), .microseconds(4), .nanoseconds(5)].allSatisfy {
                $0 == 0
            })
        var stride: Stride = 3
        stride += 4
        stride *= 2
        stride -= 1
        #expect(stride == 13 && Stride(2) * Stride(3) == 6 && Stride(2) - Stride(5) == -3)
        #expect(Stride(-5) < Stride(1))
        #expect(String(decoding: try JSONEncoder().encode(Stride(-42)), as: UTF8.self) == #"{"magnitude":-42}"#)
        #expect(try JSONDecoder().decode(Stride.self, from: Data(#"{"magnitude":8}"#.utf8)) == 8)
    }

    @Test func immediateRepeatingWorkRunsOnce() {
        var runs = 0
        let cancellable = ImmediateScheduler.shared.schedule(
            after: ImmediateScheduler.shared.now, interval: 1, tolerance: 0, options: nil
        ) { runs += 1 }
        #expect(runs == 1)
        cancellable.cancel()
        #expect(runs == 1)
    }
}
