import Foundation
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("Error reporting")
struct ErrorDigestTests {
    struct Order: Decodable {
        @Resilient var items: [Item]
        @Resilient var note: String?
        @Resilient var layout: Layout

        struct Item: Decodable {
            let sku: String
            let quantity: Int
        }
    }

    static let payload = #"""
        {"items": [{"sku": "a", "quantity": 1}, {"sku": "b", "quantity": "many"}, {"quantity": 2}, {"sku": "d", "quantity": 4}],
         "note": 17, "layout": "carousel"}
        """#

    @Test func theDigestIsATreeOfPropertiesIndicesAndMessages() throws {
        let (order, digest) = try decode(Order.self, Self.payload)
        #expect(order.items.map(\.sku) == ["a", "d"])
        #expect(
            try #require(digest).debugDescription == """
                3 errors (and 1 unknown novel value)
                - items
                  - [1]: Expected to decode Int but found a string instead. (at quantity)
                  - [2]: missing key "sku"
                - note: Expected to decode String but found number instead.
                - layout: unknown novel value "carousel" for Layout
                """)
    }

    @Test func arrayPositionsAreListedInOrderWhateverOrderTheyWereReportedIn() throws {
        struct Feed: Decodable {
            @Resilient var posts: [Post]
        }
        // Post 3's author is reported while post 3 is decoded; post 1, left out, only when the
        // array is done.
        let (feed, digest) = try decode(
            Feed.self, #"{"posts": [{"id": 0}, {"id": "one"}, {"id": 2}, {"id": 3, "author": 7}]}"#)
        #expect(feed.posts.map(\.id) == [0, 2, 3])
        #expect(
            try #require(digest).debugDescription == """
                2 errors
                - posts
                  - [1]: Expected to decode Int but found a string instead. (at id)
                  - [3]
                    - author: Expected to decode Dictionary<String, Any> but found number instead.
                """)
    }

    @Test func aDictionarysBadEntriesAreListedInKeyOrderEveryTime() throws {
        struct Catalog: Decodable {
            @Resilient var stock: [String: Int]
        }
        // Twenty bad entries, sent in reverse order: the decoder hands the keys over in the order
        // of a hash table, which changed from one decode to the next.
        let keys = (10..<30).map { "k\($0)" }
        let json = #"{"stock": {"# + keys.reversed().map { #""\#($0)": "x""# }.joined(separator: ", ") + "}}"
        for _ in 0..<3 {
            let (_, digest) = try decode(Catalog.self, json)
            let listed = try #require(digest).debugDescription.split(separator: "\n").dropFirst(2)
            #expect(listed.map { String($0.prefix { $0 != ":" }) } == keys.map { "  - \($0)" })
        }
    }

    @Test func errorsComeInTheOrderTheyHappened() throws {
        let (_, digest) = try decode(Order.self, Self.payload)
        let errors = try #require(digest).errors
        #expect(errors.count == 3)
        guard case DecodingError.typeMismatch = errors[0], case DecodingError.keyNotFound = errors[1] else {
            Issue.record("unexpected errors \(errors)")
            return
        }
    }

    @Test func theReporterFlushesOnceAndCollectsAcrossDecodes() throws {
        let reporter = ResilientDecodingErrorReporter()
        let decoder = JSONDecoder()
        decoder.userInfo[.resilientDecodingErrorReporter] = reporter
        _ = try decoder.decode(Order.self, from: Data(Self.payload.utf8))
        _ = try decoder.decode(Order.self, from: Data(#"{"note": false}"#.utf8))
        #expect(reporter.flushReportedErrors()?.errors.count == 4)
        #expect(reporter.flushReportedErrors() == nil)
    }

    @Test func decodingWithoutReportingReturnsNoDigestAndLeavesTheDecoderAlone() throws {
        let decoder = JSONDecoder()
        let (order, digest) = try decoder.decode(Order.self, from: Data(Self.payload.utf8), reportResilientDecodingErrors: false)
        #expect(order.items.count == 2)
        #expect(digest == nil)
        _ = try decoder.decode(Order.self, from: Data(Self.payload.utf8), reportResilientDecodingErrors: true)
        #expect(decoder.userInfo[.resilientDecodingErrorReporter] == nil)
    }

    @Test func theDecoderSettingsCarryOver() throws {
        struct Snake: Decodable {
            @Resilient var userName: String?
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let (snake, _) = try decoder.decode(
            Snake.self, from: Data(#"{"user_name": "ann"}"#.utf8), reportResilientDecodingErrors: true)
        #expect(snake.userName == "ann")
    }

    @Test func aValueThatCannotBeDecodedAtAllStillThrows() {
        #expect(throws: DecodingError.self) {
            try decode(Order.Item.self, "{}")
        }
    }
}
