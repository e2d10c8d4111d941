import Dispatch
import Foundation
import Streams
import Testing

/// `DispatchQueue.SchedulerTimeType` and its `Stride` at the edges, with Combine's exact values.
@Suite("DispatchQueue.SchedulerTimeType as Combine defines it")
struct DispatchQueueTimeTypeTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test func magnitudeIsIntNanoseconds() {
        let magnitude: Int = Stride.milliseconds(3).magnitude
        #expect(magnitude == 3_000_000)
        #expect(Stride.Magnitude.self == Int.self)
        #expect(Stride.nanoseconds(-7).magnitude == -7)
    }

    @Test func literalsAreSeconds() {
        let integer: Stride = 2
        let float: Stride = 1.2
        #expect(integer.magnitude == 2_000_000_000)
        #expect(float.magnitude == 1_200_000_000)
        #expect(Stride(0.5).magnitude == 500_000_000)
    }

    @Test func exactlyIsSecondsAndFailsPastInt() {
        #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
        #expect(Stride(exactly: -3 as Int8)?.magnitude == -3_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
    }

    @Test func largeIntervalsSaturate() {
        #expect(Stride.milliseconds(.max).magnitude == .max)
        #expect(Stride.microseconds(.max).magnitude == .max)
        #expect(Stride.nanoseconds(.max).magnitude == .max)
        #expect(Stride.seconds(.max).magnitude == .max)
        #expect(Stride.seconds(1e300).magnitude == .max)
        #expect(Stride.seconds(-1e300).magnitude == .min)
        #expect(Stride(exactly: Int.max)?.magnitude == .max)
    }

    @Test func encodesAsNanosecondsKey() throws {
        let encoded = try JSONEncoder().encode(Stride.nanoseconds(419_872))
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"_nanoseconds":419872}"#)
        let decoded = try JSONDecoder().decode(Stride.self, from: Data(#"{"_nanoseconds":-5}"#.utf8))
        #expect(decoded == .nanoseconds(-5))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Stride.self, from: Data(#"{"magnitude":5}"#.utf8))
        }
    }

    @Test func advancedSaturatesAtDistantFuture() {
        let late = Time(DispatchTime(uptimeNanoseconds: UInt64.max - 10))
        #expect(late.advanced(by: .nanoseconds(11)) == Time(.distantFuture))
        #expect(late.advanced(by: .nanoseconds(.max)) == Time(.distantFuture))
        let start = Time(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(start.advanced(by: .nanoseconds(500)).dispatchTime.uptimeNanoseconds == 1_500)
        #expect(start.advanced(by: .seconds(1)).dispatchTime.uptimeNanoseconds == 1_000_001_000)
    }

    /// As in Combine, `advanced(by:)` is Dispatch's own `DispatchTime + DispatchTimeInterval`:
    /// a result past the latest time Dispatch can represent is `distantFuture`, not only one
    /// that overflows `UInt64`.
    @Test func advancedPastTheLatestTimeDispatchCanRepresentIsDistantFuture() {
        let start = Time(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(start.advanced(by: .nanoseconds(.max)) == Time(.distantFuture))
        #expect(Time(DispatchTime(uptimeNanoseconds: 1)).advanced(by: .nanoseconds(.max)) == Time(.distantFuture))
        #expect(Time(.distantFuture).advanced(by: .seconds(-1)) == Time(.distantFuture))
    }

    /// Checked against Linux's Dispatch on a grid of times (from one nanosecond of uptime, since
    /// Dispatch reads zero as "now", to `distantFuture`) and strides in both directions. (Where
    /// Dispatch counts in machine ticks rather than nanoseconds, its limits fall elsewhere.)
    #if os(Linux)
    @Test func advancedMatchesDispatchsOwnArithmetic() {
        let latest: UInt64 = 1 << 62
        let times: [UInt64] = [
            1, 600, 10_000, 1_000_000_007, 1 << 40, latest - 10_000, latest - 3, latest - 2, latest - 1, latest,
            latest + 5, (1 << 63) - 1, .max,
        ]
        let strides: [Int] = [
            0, 1, -1, 400, -400, 10_000, -10_000, 1_000_000_000, -1_000_000_000, 1 << 61, -(1 << 61),
            (1 << 62) - 10_002, (1 << 62) - 10_001, (1 << 62) - 10_000, 1 << 62, -(1 << 62), .max, -.max, .min,
        ]
        for time in times {
            for stride in strides {
                let dispatch = DispatchTime(uptimeNanoseconds: time) + .nanoseconds(stride)
                let streams = Time(DispatchTime(uptimeNanoseconds: time)).advanced(by: .nanoseconds(stride))
                #expect(
                    streams.dispatchTime.uptimeNanoseconds == dispatch.uptimeNanoseconds,
                    "\(time) advanced by \(stride)")
            }
        }
    }
    #endif

    @Test func advancedNeverGoesBelowTheEarliestTime() {
        let start = Time(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(start.advanced(by: .nanoseconds(-400)).dispatchTime.uptimeNanoseconds == 600)
        #expect(start.advanced(by: .nanoseconds(-1_000)).dispatchTime.uptimeNanoseconds == 1)
        #expect(start.advanced(by: .nanoseconds(.min)).dispatchTime.uptimeNanoseconds == 1)
    }

    @Test func distanceIsExactWhenItFits() {
        let start = Time(DispatchTime(uptimeNanoseconds: 5_000))
        let later = Time(DispatchTime(uptimeNanoseconds: 2_000_005_000))
        #expect(start.distance(to: later) == .seconds(2))
        #expect(later.distance(to: start) == .seconds(-2))
        #expect(start.distance(to: start) == .zero)
    }

    /// Past `Int`, Combine answers `.max` in both directions; Streams keeps the sign.
    @Test func distanceBeyondIntKeepsItsSign() {
        let early = Time(DispatchTime(uptimeNanoseconds: 1))
        let far = Time(.distantFuture)
        #expect(early.distance(to: far).magnitude == .max)
        #expect(far.distance(to: early).magnitude == -.max)
    }
}
