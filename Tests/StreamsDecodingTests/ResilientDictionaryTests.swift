import Foundation
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("@Resilient dictionaries")
struct ResilientDictionaryTests {
    struct Prices: Decodable {
        @Resilient var byCurrency: [String: Double]
        @Resilient var discounts: [String: Double]?
    }

    @Test func badEntriesAreLeftOut() throws {
        let (prices, digest) = try decode(Prices.self, #"{"byCurrency": {"EUR": 1.5, "USD": "lots", "CHF": 2}}"#)
        #expect(prices.byCurrency == ["EUR": 1.5, "CHF": 2])
        #expect(prices.$byCurrency.errors.count == 1)
        #expect(prices.$byCurrency.results["EUR"]?.value == 1.5)
        #expect(prices.$byCurrency.results["USD"].map { $0.value == nil } == true)
        #expect(
            try #require(digest).debugDescription == """
                1 error
                - byCurrency
                  - USD: Expected to decode Double but found a string instead.
                """)
    }

    @Test func missingNullAndWrongTypeGiveAnEmptyDictionary() throws {
        let (missing, _) = try decode(Prices.self, "{}")
        #expect(missing.byCurrency.isEmpty)
        #expect(missing.$byCurrency.outcome.description == "keyNotFound")
        let (null, _) = try decode(Prices.self, #"{"byCurrency": null}"#)
        #expect(null.$byCurrency.outcome.description == "valueWasNil")
        let (wrong, _) = try decode(Prices.self, #"{"byCurrency": [1]}"#)
        #expect(wrong.byCurrency.isEmpty)
        #expect(wrong.$byCurrency.errors.count == 1)
    }

    @Test func optionalDictionaries() throws {
        let (missing, _) = try decode(Prices.self, "{}")
        #expect(missing.discounts == nil)
        let (null, _) = try decode(Prices.self, #"{"discounts": null}"#)
        #expect(null.discounts == nil)
        let (partial, _) = try decode(Prices.self, #"{"discounts": {"EUR": 0.1, "USD": false}}"#)
        #expect(partial.discounts == ["EUR": 0.1])
        #expect(partial.$discounts.results.count == 2)
    }

    @Test func anOptionalDictionaryWhoseValueIsNotAnObjectIsEmptyAndTheErrorRecorded() throws {
        for json in [#"{"discounts": "none"}"#, #"{"discounts": 10}"#, #"{"discounts": [0.1]}"#] {
            let (prices, digest) = try decode(Prices.self, json)
            #expect(prices.discounts == [:], "\(json)")
            #expect(prices.$discounts.errors.count == 1, "\(json)")
            #expect(try #require(digest).errors.count == 1, "\(json)")
        }
    }
}
