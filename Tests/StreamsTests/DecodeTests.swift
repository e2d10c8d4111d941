import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("decode, encode")
struct DecodeTests {
    struct Availability: Codable, Equatable { let isAvailable: Bool }

    @Test func decodesEachValue() {
        let subscriber = TestSubscriber<Availability, any Error>()
        [Data(#"{"isAvailable":true}"#.utf8), Data(#"{"isAvailable":false}"#.utf8)].publisher
            .decode(type: Availability.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        #expect(subscriber.values == [Availability(isAvailable: true), Availability(isAvailable: false)])
        if case .finished = subscriber.completion {} else { Issue.record("expected finished") }
    }

    @Test func aDecodingErrorFailsTheStream() {
        let subscriber = TestSubscriber<Availability, any Error>()
        Just(Data(#"{"available":true}"#.utf8))
            .decode(type: Availability.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        if case .failure(let error) = subscriber.completion {
            #expect(error is DecodingError)
        } else {
            Issue.record("expected a DecodingError")
        }
        #expect(String(describing: subscriber.subscription!) == "Decode")
    }

    @Test func encodeThenDecodeRoundTrips() {
        let subscriber = TestSubscriber<Availability, any Error>()
        [Availability(isAvailable: true)].publisher
            .encode(encoder: JSONEncoder())
            .decode(type: Availability.self, decoder: JSONDecoder())
            .subscribe(subscriber)
        #expect(subscriber.values == [Availability(isAvailable: true)])
    }
}
