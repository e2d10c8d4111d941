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
}
