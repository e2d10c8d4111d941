import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("Record")
struct RecordTests {
    @Test func replaysValuesAndCompletionToEachSubscriber() {
        let record = Record<Int, TestError>(output: [1, 2], completion: .failure(.oops))
        for _ in 0..<2 {
            let subscriber = TestSubscriber<Int, TestError>()
            record.subscribe(subscriber)
            #expect(subscriber.values == [1, 2])
            #expect(subscriber.completion == .failure(.oops))
        }
    }

    @Test func honoursDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func recordsWithAClosure() {
        let record = Record<String, Never> { recording in
            recording.receive("a")
            recording.receive("b")
            recording.receive(completion: .finished)
        }
        #expect(record.recording.output == ["a", "b"])
        #expect(record.recording.completion == .finished)
        #expect(record == Record(output: ["a", "b"], completion: .finished))
        let subscriber = TestSubscriber<String, Never>()
        record.subscribe(subscriber)
        #expect(subscriber.values == ["a", "b"])
        // Nothing recorded about the end: it finishes.
        let open = TestSubscriber<Int, Never>()
        Record<Int, Never> { $0.receive(7) }.subscribe(open)
        #expect(open.completion == .finished)
    }

    @Test func recordingAfterTheCompletionTraps() async {
        await #expect(processExitsWith: .failure) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
    }

    struct Refused: Error, Codable, Equatable {
        let reason: String
    }

    @Test func recordsAndCompletionsRoundTripThroughJSON() throws {
        let record = Record<Int, Refused>(output: [1, 2], completion: .failure(Refused(reason: "busy")))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Refused>.self, from: data)
        #expect(decoded == record)

        let finished = try JSONEncoder().encode(Subscribers.Completion<Never>.finished)
        #expect(String(decoding: finished, as: UTF8.self) == #"{"success":true}"#)
        let failed = Subscribers.Completion<Refused>.failure(Refused(reason: "busy"))
        #expect(try JSONDecoder().decode(Subscribers.Completion<Refused>.self, from: JSONEncoder().encode(failed)) == failed)
        let neverFails = try JSONDecoder().decode(
            Record<String, Never>.self, from: JSONEncoder().encode(Record<String, Never>(output: ["a"], completion: .finished)))
        #expect(neverFails.recording.output == ["a"])
    }

    @Test func recordingsEncodeIntoAnEncoderAsCombineNamesIt() throws {
        struct Wrapper: Encodable {
            let recording: Record<Int, Never>.Recording
            func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
        }
        let recording = Record<Int, Never>.Recording(output: [1, 2], completion: .finished)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(Wrapper(recording: recording)) == encoder.encode(recording))
        let decoded = try JSONDecoder().decode(
            Record<Int, Never>.Recording.self, from: try encoder.encode(Wrapper(recording: recording)))
        #expect(decoded == recording)
    }
}
