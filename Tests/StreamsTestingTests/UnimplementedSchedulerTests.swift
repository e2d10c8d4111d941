import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("UnimplementedScheduler")
struct UnimplementedSchedulerTests {
    /// Runs `body` with a reporter that collects the messages instead of failing the test.
    func reports(of body: () -> Void) -> [String] {
        let messages = Locked<[String]>([])
        TestIssueReporter.$current.withValue(TestIssueReporter { message in messages.withLock { $0.append(message) } }) {
            body()
        }
        return messages.withLock { $0 }
    }

    @Test func everyUseReportsAFailureNamingTheSchedulerAndTheWorkStillRuns() {
        let scheduler = DispatchQueue.unimplemented("mainQueue")
        let ran = Locked(0)
        let messages = reports {
            _ = scheduler.now
            _ = scheduler.minimumTolerance
            scheduler.schedule(options: nil) { ran.withLock { $0 += 1 } }
            scheduler.schedule(after: .init(.init(uptimeNanoseconds: 5)), tolerance: .zero, options: nil) {
                ran.withLock { $0 += 1 }
            }
            scheduler.schedule(after: .init(.init(uptimeNanoseconds: 5)), interval: .seconds(1), tolerance: .zero, options: nil) {
                ran.withLock { $0 += 1 }
            }
            .cancel()
        }
        #expect(
            messages == [
                "mainQueue - An unimplemented scheduler was asked the current time.",
                "mainQueue - An unimplemented scheduler was asked its minimum tolerance.",
                "mainQueue - An unimplemented scheduler scheduled an action to run immediately.",
                "mainQueue - An unimplemented scheduler scheduled an action to run later.",
                "mainQueue - An unimplemented scheduler scheduled an action to run on a timer.",
            ])
        #expect(ran.withLock { $0 } == 3)
    }

    @Test func eachQueueKindIsNamedByDefault() {
        #expect(
            reports { DispatchQueue.unimplemented.schedule {} } == [
                "DispatchQueue - An unimplemented scheduler scheduled an action to run immediately."
            ])
        #expect(
            reports { OperationQueue.unimplemented.schedule {} } == [
                "OperationQueue - An unimplemented scheduler scheduled an action to run immediately."
            ])
        #expect(
            reports { RunLoop.unimplemented.schedule {} } == [
                "RunLoop - An unimplemented scheduler scheduled an action to run immediately."
            ])
        #expect(
            reports { RunLoop.unimplemented("clock").schedule {} } == [
                "clock - An unimplemented scheduler scheduled an action to run immediately."
            ])
        #expect(
            reports { UnimplementedSchedulerOf<DispatchQueue>(now: .init(.init(uptimeNanoseconds: 1))).schedule {} } == [
                "An unimplemented scheduler scheduled an action to run immediately."
            ])
        #expect(
            reports { AnySchedulerOf<DispatchQueue>.unimplemented("erased").schedule {} } == [
                "erased - An unimplemented scheduler scheduled an action to run immediately."
            ])
    }

    @Test func unusedItReportsNothing() {
        #expect(reports { _ = DispatchQueue.unimplemented("idle").prefix } == [])
    }

    @Test func underSwiftTestingTheAutomaticReporterRecordsAnIssue() {
        withKnownIssue {
            DispatchQueue.unimplemented("mainQueue").schedule {}
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue == "mainQueue - An unimplemented scheduler scheduled an action to run immediately."
            }
        }
    }
}
