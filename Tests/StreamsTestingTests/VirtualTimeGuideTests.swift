import Streams
import StreamsTesting
import Testing

/// The example of Docs/TestingWithVirtualTime.md, kept compiling and passing.
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
}
