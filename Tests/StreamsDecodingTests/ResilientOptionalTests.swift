import Foundation
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("@Resilient optional")
struct ResilientOptionalTests {
    struct Profile: Decodable {
        @Resilient var age: Int?
    }

    @Test func aGoodValueIsDecoded() throws {
        let (profile, digest) = try decode(Profile.self, #"{"age": 42}"#)
        #expect(profile.age == 42)
        #expect(profile.$age.outcome.description == "decodedSuccessfully")
        #expect(profile.$age.error == nil)
        #expect(digest == nil)
    }

    @Test func aMissingKeyIsNilAndNotAnError() throws {
        let (profile, digest) = try decode(Profile.self, "{}")
        #expect(profile.age == nil)
        #expect(profile.$age.outcome.description == "keyNotFound")
        #expect(digest == nil)
    }

    @Test func nullIsNilAndNotAnError() throws {
        let (profile, digest) = try decode(Profile.self, #"{"age": null}"#)
        #expect(profile.age == nil)
        #expect(profile.$age.outcome.description == "valueWasNil")
        #expect(digest == nil)
    }

    @Test func aBadValueIsNilAndReported() throws {
        let (profile, digest) = try decode(Profile.self, #"{"age": "old"}"#)
        #expect(profile.age == nil)
        let error = try #require(profile.$age.error)
        guard case DecodingError.typeMismatch = error else {
            Issue.record("expected a type mismatch, got \(error)")
            return
        }
        guard case .recoveredFrom(_, let wasReported) = profile.$age.outcome else {
            Issue.record("expected recoveredFrom, got \(profile.$age.outcome)")
            return
        }
        #expect(wasReported)
        #expect(try #require(digest).errors.count == 1)
    }

    @Test func withoutAReporterNothingIsReported() throws {
        let profile = try JSONDecoder().decode(Profile.self, from: Data(#"{"age": "old"}"#.utf8))
        guard case .recoveredFrom(_, let wasReported) = profile.$age.outcome else {
            Issue.record("expected recoveredFrom")
            return
        }
        #expect(!wasReported)
    }

    @Test func nestedTypesRecoverAtTheirOwnLevel() throws {
        struct Feed: Decodable {
            @Resilient var pinned: Post?
        }
        // The pinned post decodes; only its author is bad, so the author alone becomes nil.
        let (feed, digest) = try decode(Feed.self, #"{"pinned": {"id": 1, "author": {"name": 5}}}"#)
        #expect(feed.pinned?.id == 1)
        #expect(feed.pinned?.author == nil)
        #expect(feed.$pinned.outcome.description == "decodedSuccessfully")
        #expect(feed.pinned?.$author.error != nil)
        #expect(
            try #require(digest).debugDescription == """
                1 error
                - pinned
                  - author: Expected to decode String but found number instead. (at name)
                """)
    }

    @Test func aNestedFailureThatCannotBeRecoveredInsideDropsTheOuterValue() throws {
        struct Feed: Decodable {
            @Resilient var pinned: Post?
        }
        let (feed, digest) = try decode(Feed.self, #"{"pinned": {"author": {"name": "Ann"}}}"#)
        #expect(feed.pinned == nil)
        #expect(
            try #require(digest).debugDescription == """
                1 error
                - pinned: missing key "id"
                """)
    }

    @Test func settingTheValueMarksItDecoded() throws {
        var (profile, _) = try decode(Profile.self, #"{"age": "old"}"#)
        profile.age = 7
        #expect(profile.$age.outcome.description == "decodedSuccessfully")
    }

    @Test func theWrapperEncodesAsItsValue() throws {
        struct Named: Codable {
            @Resilient var name: String?
        }
        let data = try JSONEncoder().encode(Named(name: "Ann"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"name":"Ann"}"#)
    }

    @Test func aWholeResilientValueDecodesOnItsOwn() throws {
        let nothing = try JSONDecoder().decode(Resilient<Int?>.self, from: Data(#""x""#.utf8))
        #expect(nothing.wrappedValue == nil)
        #expect(nothing.error != nil)
        let tags = try JSONDecoder().decode(Resilient<[String]>.self, from: Data(#"["a", 1, "b"]"#.utf8))
        #expect(tags.wrappedValue == ["a", "b"])
        #expect(tags.errors.count == 1)
        let layout = try JSONDecoder().decode(Resilient<Layout>.self, from: Data(#""carousel""#.utf8))
        #expect(layout.wrappedValue == .unknown)
    }
}
