import Foundation
import Streams
import StreamsDecoding
import StreamsResilience
import Testing

@Suite("decode(type:decoder:reportResilientDecodingErrors:)")
struct ResilientDecodeOperatorTests {
    struct Feed: Decodable {
        @Resilient var ids: [Int]
        @Resilient var layout: Layout
    }

    @Test func eachValueWithErrorsHandsOverItsDigest() {
        var digests: [String] = []
        var feeds: [[Int]] = []
        let bodies = [#"{"ids": [1, "x"]}"#, #"{"ids": [2]}"#, #"{"ids": [3], "layout": "carousel"}"#, #"{"ids": [null]}"#]
        let cancellable = bodies.map { Data($0.utf8) }.publisher
            .decode(type: Feed.self, decoder: JSONDecoder()) { digests.append($0.debugDescription) }
            .sink(receiveCompletion: { _ in }, receiveValue: { feeds.append($0.ids) })
        #expect(feeds == [[1], [2], [3], []])
        // The second value decoded cleanly and the third only met a novel value: no digest.
        #expect(
            digests == [
                "1 error\n- ids\n  - [1]: Expected to decode Int but found a string instead.",
                "1 error\n- ids\n  - [0]: Cannot get value of type Int -- found null value instead",
            ])
        _ = cancellable
    }

    @Test func anUndecodableValueFailsTheStream() {
        var completion: Subscribers.Completion<any Error>?
        let cancellable = Just(Data("[]".utf8))
            .decode(type: Feed.self, decoder: JSONDecoder()) { _ in Issue.record("no digest expected") }
            .sink(receiveCompletion: { completion = $0 }, receiveValue: { _ in })
        guard case .failure(let error) = completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is DecodingError)
        _ = cancellable
    }
}
