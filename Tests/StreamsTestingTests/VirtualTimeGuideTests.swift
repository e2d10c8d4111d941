import Streams
import StreamsTesting
import Testing

/// The examples of Docs/TestingWithVirtualTime.md, kept compiling and passing.
@Suite("Testing with virtual time guide")
struct VirtualTimeGuideTests {
    final class SearchModel<S: Scheduler>: @unchecked Sendable {
        @Published var query = ""
        @Published private(set) var searches: [String] = []
        private var cancellables = Set<AnyCancellable>()

        init(scheduler: S) {
            $query
                .dropFirst()
                .debounce(for: .milliseconds(800), scheduler: scheduler)
                .removeDuplicates()
                .sink { [unowned self] in searches.append($0) }
                .store(in: &cancellables)
        }
    }

    @Test func searchesOnceTheUserStopsTyping() {
        let scheduler = TestScheduler()
        let model = SearchModel(scheduler: scheduler)

        model.query = "s"
        scheduler.advance(by: .milliseconds(300))
        model.query = "sw"
        scheduler.advance(by: .milliseconds(799))
        #expect(model.searches == [])

        scheduler.advance(by: .milliseconds(1))
        #expect(model.searches == ["sw"])
    }

    protocol Job: Sendable {
        func isReady() async throws -> Bool
    }

    final class FakeJob: Job {
        private let pollCount = Locked(0)
        private let readyOnPoll: Int

        init(readyOnPoll: Int) {
            self.readyOnPoll = readyOnPoll
        }

        var polls: Int { pollCount.withLock { $0 } }

        func isReady() async throws -> Bool {
            pollCount.withLock {
                $0 += 1
                return $0 >= readyOnPoll
            }
        }
    }

    static func waitUntilReady(_ job: some Job, clock: some Clock<Duration>) async throws -> Int {
        var polls = 1
        while try await !job.isReady() {
            try await clock.sleep(for: .seconds(2))
            polls += 1
        }
        return polls
    }

    @MainActor
    @Test func pollsEveryTwoSecondsUntilTheJobIsReady() async throws {
        let clock = TestClock()
        let job = FakeJob(readyOnPoll: 3)
        let task = Task { try await Self.waitUntilReady(job, clock: clock) }
        await clock.advance(by: .seconds(2))
        #expect(job.polls == 2)
        await clock.advance(by: .seconds(2))
        #expect(try await task.value == 3)
    }
}
