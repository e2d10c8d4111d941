import Foundation
import Streams
import Testing

@Suite("RetryAfter.parse")
struct RetryAfterTests {
    /// 1994-11-06 08:49:37 UTC, the date of RFC 9110's examples.
    let example = Date(timeIntervalSince1970: 784_111_777)

    @Test func deltaSeconds() {
        #expect(RetryAfter.parse("120") == .seconds(120))
        #expect(RetryAfter.parse("0") == .zero)
        #expect(RetryAfter.parse("  7\t") == .seconds(7))
        #expect(RetryAfter.parse("99999999999999999999999999") == RetryAfter.unbounded)
    }

    @Test func theThreeDateForms() {
        let now = example - 90
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(90))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(90))
        #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == .seconds(90))
        #expect(RetryAfter.parse("Wed Nov 16 08:49:37 1994", now: now) == .seconds(90 + 10 * 86_400))
    }

    @Test func aDateInThePastIsZero() {
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: example + 1) == .zero)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT") == .zero)
    }

    @Test func twoDigitYearsFollowTheFiftyYearRule() {
        // Seen from 2026, "30" is 2030 (within 50 years) and "94" is 1994.
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11
        let future = RetryAfter.parse("Monday, 01-Jan-30 00:00:00 GMT", now: now)
        #expect(future != nil && future! > .seconds(86_400 * 365 * 3))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .zero)
    }

    @Test func leapDays() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.parse("Thu, 29 Feb 2024 00:00:00 GMT", now: now) == .seconds(1_709_164_800))
        #expect(RetryAfter.parse("Wed, 29 Feb 2023 00:00:00 GMT", now: now) == nil)
    }

    @Test func twoDigitYearsCompareInstantsNotWholeYears() {
        let now = Date(timeIntervalSince1970: 1_795_305_600)  // 2026-11-22 00:00:00 UTC
        // 2076-12-01 is more than 50 years after now (2076-11-22): the year is 1976, in the past.
        #expect(RetryAfter.parse("Tuesday, 01-Dec-76 00:00:00 GMT", now: now) == .zero)
        // Exactly 50 years ahead is not "more than 50 years": still 2076; one second later is 1976.
        let fifty = Duration.seconds(3_373_228_800 - 1_795_305_600)
        #expect(RetryAfter.parse("Sunday, 22-Nov-76 00:00:00 GMT", now: now) == fifty)
        #expect(RetryAfter.parse("Sunday, 22-Nov-76 00:00:01 GMT", now: now) == .zero)
        // A fraction of a second in `now` counts too.
        #expect(RetryAfter.parse("Sunday, 22-Nov-76 00:00:00 GMT", now: now - 0.5) == .zero)
    }

    @Test func aNonFiniteNowGivesNilForDatesAndDoesNotTrap() {
        for now in [Double.nan, .infinity, -.infinity].map(Date.init(timeIntervalSince1970:)) {
            #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == nil)
            #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == nil)
            #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == nil)
            #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        }
        // Finite but absurd: too far from 1970 to settle a two-digit year.
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Date(timeIntervalSince1970: 1e300)) == nil)
    }

    @Test func aTwoDigitYearNeverNamesAYearNoFourDigitFormCanWrite() {
        // The fuzzer's find: a `now` in the year ~26,000 made "94" the year 26,094.
        let farFuture = Date(timeIntervalSince1970: 7.7e11)
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: farFuture) == nil)
        #expect(RetryAfter.date("Sunday, 06-Nov-94 08:49:37 GMT", now: farFuture) == nil)
        // Late in 9999, "99" is still 9999.
        let lateIn9999 = Date(timeIntervalSince1970: 253_402_000_000)
        let lastSecond = Date(timeIntervalSince1970: 253_402_300_799)
        #expect(RetryAfter.date("Friday, 31-Dec-99 23:59:59 GMT", now: lateIn9999) == lastSecond)
        // Before year 0 in the other direction.
        let beforeYearZero = Date(timeIntervalSince1970: -62_200_000_000)
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: beforeYearZero) == nil)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: beforeYearZero) != nil)
    }

    @Test func farFutureDatesDoNotOverflow() {
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: epoch) == .seconds(253_402_300_799))
        #expect(
            RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: Date(timeIntervalSince1970: -1e300)) == RetryAfter.unbounded)
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: Date(timeIntervalSince1970: 1e300)) == .zero)
        #expect(RetryAfter.parse("Mon, 01 Jan 0000 00:00:00 GMT", now: epoch) == .zero)
    }

    @Test(arguments: ["86400", "\t86400", " 86400 ", "\t\t1\t", "0", ""])
    func digitsAreNotAnHTTPDate(_ value: String) {
        #expect(RetryAfter.date(value) == nil)
    }

    @Test func anHTTPDateMayBePaddedWithWhitespace() {
        #expect(RetryAfter.date("\tSun, 06 Nov 1994 08:49:37 GMT ") == example)
        #expect(RetryAfter.date("Sunday, 06-Nov-94 08:49:37 GMT", now: example) == example)
    }

    @Test(arguments: [
        "", "   ", "-1", "+5", "1.5", "12abc", "1 2", "120, 60", "soon",
        "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 32 Jan 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
        "Sun Nov  6 08:49:37 94", "Sun, 06 Nov 1994 08:49:37 GMT extra", "sun, 06 nov 1994 08:49:37 gmt",
    ])
    func garbageIsNil(_ value: String) {
        #expect(RetryAfter.parse(value, now: example) == nil)
    }
}
