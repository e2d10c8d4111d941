import Dispatch
import Streams
import StreamsTesting
import Testing

/// Virtual time describes itself in short, exact units wherever it is shown: `print`, string
/// interpolation, `dump`, and the failure messages of `#expect`.
@Suite("Virtual time descriptions")
struct VirtualTimeDescriptionTests {
    typealias Stride = VirtualTime.Stride

    @Test(arguments: [
        (Stride.zero, "0s"),
        (.seconds(1), "1s"),
        (.milliseconds(1_500), "1.5s"),
        (.milliseconds(500), "500ms"),
        (.microseconds(1_500), "1.5ms"),
        (.microseconds(250), "250µs"),
        (.nanoseconds(7), "7ns"),
        (.nanoseconds(1_000_000_001), "1.000000001s"),
        (.seconds(90), "90s"),
        (.milliseconds(-2_000), "-2s"),
        (.microseconds(-250), "-250µs"),
        (.nanoseconds(.max), "9223372036.854775807s"),
        (.nanoseconds(.min), "-9223372036.854775808s"),
    ])
    func anIntervalIsItsLargestWholeUnitWithExactDecimals(stride: Stride, text: String) {
        #expect(stride.description == text)
    }

    @Test func anInstantIsTEqualsTheTimeSinceTheStart() {
        let scheduler = TestScheduler()
        #expect(scheduler.now.description == "t=0s")
        scheduler.advance(by: .milliseconds(250))
        #expect(scheduler.now.description == "t=250ms")
        scheduler.advance(by: .milliseconds(1_250))
        #expect(scheduler.now.description == "t=1.5s")
        #expect(VirtualTime(nanoseconds: 1).description == "t=1ns")
    }

    @Test func aQueuesTimeIsTEqualsItsUptime() {
        let scheduler = DispatchQueue.test
        #expect(scheduler.now.description == "t=1ns")
        scheduler.advance(by: .seconds(1))
        #expect(scheduler.now.description == "t=1.000000001s")
        #expect(DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_500_000_000)).description == "t=1.5s")
        #expect(DispatchQueue.SchedulerTimeType(.distantFuture).description == "t=distantFuture")
    }

    @Test func printInterpolationAndDumpShowTheDescription() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .milliseconds(1_500))
        let wait: Stride = .milliseconds(500)

        var printed = ""
        print(scheduler.now, wait, [wait, .seconds(2)], to: &printed)
        #expect(printed == "t=1.5s 500ms [500ms, 2s]\n")
        #expect("at \(scheduler.now), after \(wait)" == "at t=1.5s, after 500ms")
        #expect(String(reflecting: wait) == "500ms")

        var dumped = ""
        dump(wait, to: &dumped)
        #expect(dumped.hasPrefix("▿ 500ms\n"))
        dumped = ""
        dump(scheduler.now, to: &dumped)
        #expect(dumped.hasPrefix("▿ t=1.5s\n"))
    }

    @Test func aFailedExpectationShowsBothSidesReadably() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .milliseconds(500))
        let wait: Stride = .milliseconds(1_500)
        withKnownIssue {
            #expect(scheduler.now == VirtualTime(nanoseconds: 1_000_000_000))
        } matching: { issue in
            "\(issue)".contains("→ t=500ms") && "\(issue)".contains("→ t=1s")
        }
        withKnownIssue {
            #expect(wait == .seconds(2))
        } matching: { issue in
            "\(issue)".contains("→ 1.5s") && "\(issue)".contains("→ 2s")
        }
    }
}
