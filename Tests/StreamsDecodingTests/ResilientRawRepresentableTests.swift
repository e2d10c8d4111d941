import Foundation
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("@Resilient raw-representable types")
struct ResilientRawRepresentableTests {
    struct Screen: Decodable {
        @Resilient var layout: Layout
        @Resilient var day: Weekday?
        @Resilient var days: [Weekday]
    }

    @Test func knownValuesDecode() throws {
        let (screen, digest) = try decode(Screen.self, #"{"layout": "grid", "day": 2, "days": [1, 2]}"#)
        #expect(screen.layout == .grid)
        #expect(screen.day == .tuesday)
        #expect(screen.days == [.monday, .tuesday])
        #expect(digest == nil)
    }

    @Test func theFallbackReplacesMissingNullAndBadValues() throws {
        let (missing, _) = try decode(Screen.self, "{}")
        #expect(missing.layout == .unknown)
        #expect(missing.$layout.outcome.description == "keyNotFound")
        let (null, _) = try decode(Screen.self, #"{"layout": null}"#)
        #expect(null.layout == .unknown)
        #expect(null.$layout.outcome.description == "valueWasNil")
        let (bad, _) = try decode(Screen.self, #"{"layout": 3}"#)
        #expect(bad.layout == .unknown)
        #expect(bad.$layout.error is DecodingError)
    }

    @Test func anUnknownValueIsANovelValueNotCountedByDefault() throws {
        let (screen, digest) = try decode(Screen.self, #"{"layout": "carousel", "day": 7, "days": [1, 9, 2]}"#)
        #expect(screen.layout == .unknown)
        #expect(screen.day == nil)
        #expect(screen.days == [.monday, .tuesday])
        let novel = try #require(screen.$layout.error as? UnknownNovelValueError)
        #expect(novel.novelValue as? String == "carousel")
        #expect(screen.$days.errors.first is UnknownNovelValueError)
        let reported = try #require(digest)
        #expect(reported.errors.isEmpty)
        #expect(reported.errors(includeUnknownNovelValueErrors: true).count == 3)
        #expect(
            reported.debugDescription == """
                0 errors (and 3 unknown novel values)
                - layout: unknown novel value "carousel" for Layout
                - day: unknown novel value 7 for Weekday
                - days
                  - [1]: unknown novel value 9 for Weekday
                """)
    }

    @Test func aFrozenTypeTurnsAnUnknownValueIntoADecodingError() throws {
        struct Settings: Decodable {
            @Resilient var unit: Unit?
        }
        let (settings, digest) = try decode(Settings.self, #"{"unit": "furlongs"}"#)
        #expect(settings.unit == nil)
        #expect(settings.$unit.error is DecodingError)
        #expect(try #require(digest).errors.count == 1)
    }

    @Test func withoutAFallbackAnUnknownValueOutsideResilientStillFails() {
        struct Plain: Decodable {
            let day: Weekday
        }
        #expect(throws: UnknownNovelValueError.self) {
            try JSONDecoder().decode(Plain.self, from: Data(#"{"day": 5}"#.utf8))
        }
    }

    @Test func withoutAFallbackANonOptionalPropertyDecodesAsIfUnwrapped() throws {
        struct Shift: Decodable {
            @Resilient var day: Weekday
        }
        #expect(try decode(Shift.self, #"{"day": 1}"#).0.day == .monday)
        #expect(throws: UnknownNovelValueError.self) { try decode(Shift.self, #"{"day": 9}"#) }
        #expect(throws: DecodingError.self) { try decode(Shift.self, "{}") }
    }

    @Test func isFrozenDefaultsToFalse() {
        #expect(!Layout.isFrozen)
        #expect(Unit.isFrozen)
    }
}
