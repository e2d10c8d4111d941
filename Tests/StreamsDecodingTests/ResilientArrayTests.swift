import Foundation
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("@Resilient arrays")
struct ResilientArrayTests {
    struct Feed: Decodable {
        @Resilient var posts: [Post]
        @Resilient var drafts: [Post]?
    }

    @Test func badElementsAreLeftOutAndTheRestKeptInOrder() throws {
        let (feed, digest) = try decode(Feed.self, #"{"posts": [{"id": 1}, {"id": "two"}, {"id": 3}, null, {"id": 5}]}"#)
        #expect(feed.posts.map(\.id) == [1, 3, 5])
        #expect(feed.$posts.errors.count == 2)
        #expect(feed.$posts.results.map { $0.value?.id } == [1, nil, 3, nil, 5])
        #expect(try #require(digest).errors.count == 2)
    }

    @Test func resultsOfAnArrayThatDecodedAreAllValues() throws {
        let (feed, _) = try decode(Feed.self, #"{"posts": [{"id": 1}, {"id": 2}]}"#)
        #expect(feed.$posts.results.map { $0.value?.id } == [1, 2])
        #expect(feed.$posts.errors.isEmpty)
        #expect(feed.$posts.error == nil)
    }

    @Test func aFailureAtTheEndKeepsItsPlace() throws {
        let (feed, _) = try decode(Feed.self, #"{"posts": [{"id": 1}, {}]}"#)
        #expect(feed.$posts.results.map { $0.value?.id } == [1, nil])
    }

    @Test func missingNullAndWrongTypeGiveAnEmptyArray() throws {
        let (missing, missingDigest) = try decode(Feed.self, "{}")
        #expect(missing.posts.isEmpty)
        #expect(missing.$posts.outcome.description == "keyNotFound")
        #expect(missingDigest == nil)

        let (null, _) = try decode(Feed.self, #"{"posts": null}"#)
        #expect(null.posts.isEmpty)
        #expect(null.$posts.outcome.description == "valueWasNil")

        let (wrong, wrongDigest) = try decode(Feed.self, #"{"posts": {"id": 1}}"#)
        #expect(wrong.posts.isEmpty)
        #expect(wrong.$posts.errors.count == 1)
        #expect(wrong.$posts.results.isEmpty)
        #expect(try #require(wrongDigest).errors.count == 1)
    }

    @Test func optionalArraysAreNilOnlyWhenMissingOrNull() throws {
        let (missing, _) = try decode(Feed.self, "{}")
        #expect(missing.drafts == nil)
        #expect(missing.$drafts.results.isEmpty)
        let (null, _) = try decode(Feed.self, #"{"drafts": null}"#)
        #expect(null.drafts == nil)
        #expect(null.$drafts.outcome.description == "valueWasNil")
    }

    @Test func anOptionalArrayWhoseValueIsNotAnArrayIsEmptyAndTheErrorRecorded() throws {
        struct Tagged: Decodable {
            @Resilient var tags: [String]?
        }
        for json in [#"{"tags": "swift"}"#, #"{"tags": 3}"#, #"{"tags": {"a": "b"}}"#] {
            let (tagged, digest) = try decode(Tagged.self, json)
            #expect(tagged.tags == [], "\(json)")
            #expect(tagged.$tags.errors.count == 1, "\(json)")
            #expect(try #require(digest).errors.count == 1, "\(json)")
        }
    }

    @Test func anOptionalArrayInGenericCodeWhoseValueIsNotAnArrayIsEmpty() throws {
        struct Page<Items: Decodable>: Decodable {
            @Resilient var items: Items?
        }
        let (page, digest) = try decode(Page<[Int]>.self, #"{"items": "none"}"#)
        #expect(page.items == [])
        #expect(page.$items.error != nil)
        #expect(digest?.errors.count == 1)
        let (missing, _) = try decode(Page<[Int]>.self, "{}")
        #expect(missing.items == nil)
    }

    @Test func optionalArraysKeepTheirGoodElements() throws {
        let (feed, _) = try decode(Feed.self, #"{"drafts": [{"id": 1}, 2, {"id": 3}]}"#)
        #expect(feed.drafts?.map(\.id) == [1, 3])
        #expect(feed.$drafts.results.map { $0.value?.id } == [1, nil, 3])
    }

    @Test func nestedResilientPropertiesInsideElementsRecoverWithoutDroppingTheElement() throws {
        let (feed, digest) = try decode(Feed.self, #"{"posts": [{"id": 1, "author": 7}, {"id": 2, "author": {"name": "Ann"}}]}"#)
        #expect(feed.posts.map(\.id) == [1, 2])
        #expect(feed.posts.map(\.author) == [nil, Author(name: "Ann")])
        #expect(feed.$posts.errors.isEmpty)
        #expect(
            try #require(digest).debugDescription == """
                1 error
                - posts
                  - [0]
                    - author: Expected to decode Dictionary<String, Any> but found number instead.
                """)
    }

    @Test func anOptionalArrayInGenericCodeStillKeepsItsGoodElements() throws {
        struct Page<Items: Decodable>: Decodable {
            @Resilient var items: Items?
        }
        let (page, _) = try decode(Page<[Int]>.self, #"{"items": [1, "x", 3]}"#)
        #expect(page.items == [1, 3])
        #expect(page.$items.error != nil)
    }

    @Test func arraysOfArraysSkipOnlyTheBadInnerArray() throws {
        struct Grid: Decodable {
            @Resilient var rows: [[Int]]
        }
        let (grid, _) = try decode(Grid.self, #"{"rows": [[1, 2], [3, "x"], [5]]}"#)
        #expect(grid.rows == [[1, 2], [5]])
    }
}
