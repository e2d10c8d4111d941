import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite("Marble diagrams")
struct MarbleDiagramTests {
    @Test func aSourcePlaysItsDiagramOneTickASecond() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<String, MarbleFailure>()
        scheduler.publisher(marbles: "a-b--(jo)|").subscribe(subscriber)
        scheduler.advance()
        #expect(subscriber.values == ["a"])
        scheduler.advance(by: .seconds(2))
        #expect(subscriber.values == ["a", "b"])
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values == ["a", "b", "jo"])
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == .finished)
        #expect(scheduler.now == .init(nanoseconds: 6_000_000_000))
    }

    @Test func aGroupIsOneTickAndSpacesAreNoTicks() {
        let scheduler = TestScheduler()
        let subscriber = TestSubscriber<String, MarbleFailure>()
        scheduler.publisher(marbles: "- [ab] - #").subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == ["a", "b"])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.completion == .failure(MarbleFailure()))
    }

    @Test func eachSubscriptionGetsItsOwnTimelineFromItsStart() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a|")
        #expect(scheduler.marbles(of: source) == "-a|")
        scheduler.advance(by: .seconds(10))
        #expect(scheduler.marbles(of: source) == "-a|")
    }

    @Test func diagramsRoundTripThroughASource() {
        let scheduler = TestScheduler()
        for diagram in ["", "|", "#", "-a--b-|", "[ab]-(jo)--[c|]", "--(10)-(-)#"] {
            #expect(scheduler.marbles(of: scheduler.publisher(marbles: diagram)) == diagram)
        }
    }

    @Test func theTickCanBeAnyStride() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a-b|", tick: .milliseconds(100))
        let output = source.delay(for: .milliseconds(200), scheduler: scheduler)
        #expect(scheduler.marbles(of: output, tick: .milliseconds(100)) == "---a-b|")
        #expect(scheduler.now == .init(nanoseconds: 600_000_000))
    }

    @Test func anEventBetweenTicksIsDrawnAtTheLaterTick() {
        let scheduler = TestScheduler()
        let output = Just("a").delay(for: .milliseconds(1_500), scheduler: scheduler)
        #expect(scheduler.marbles(of: output) == "--[a|]")
    }

    @Test func valuesAreDrawnWithTheirDescription() {
        let scheduler = TestScheduler()
        #expect(scheduler.marbles(of: [1, 23].publisher) == "[1(23)|]")
    }

    @Test func recordingStopsAfterMaxTicksWhenWorkKeepsRepeating() {
        let scheduler = TestScheduler()
        let timer = Publishers.Timer(every: .seconds(2), scheduler: scheduler).autoconnect().map { _ in "t" }
        #expect(scheduler.marbles(of: timer, maxTicks: 7) == "--t-t-t")
        #expect(scheduler.scheduledCount == 0)
    }

    @Test func recordingStopsWhenNoWorkIsLeft() {
        let scheduler = TestScheduler()
        let silent = PassthroughSubject<String, Never>()
        #expect(scheduler.marbles(of: silent) == "")
        #expect(scheduler.now == .init(nanoseconds: 0))
    }

    @Test func aMalformedDiagramIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = TestScheduler().publisher(marbles: "-[ab")
        }
        await #expect(processExitsWith: .failure) {
            _ = TestScheduler().publisher(marbles: "-[a-b]")
        }
    }

    @Test func aDispatchQueueTestSchedulerPlaysDiagramsToo() {
        let queue = DispatchQueue.test
        let output = queue.publisher(marbles: "-a-b|").delay(for: .seconds(1), scheduler: queue)
        #expect(queue.marbles(of: output) == "--a-b|")
    }
}
