import Streams
import StreamsTesting
import Testing

// The time operators as marble diagrams: one symbol a tick, a tick a second (see
// `VirtualTimeScheduler.publisher(marbles:tick:)` for the alphabet). Each test reads as the
// source, the operator, and what comes out.

@Suite("Time operators as marble diagrams")
struct MarbleTimeOperatorTests {
    @Test func debounceSendsTheLastValueOfEachBurstOnceTheSourceIsQuiet() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a-b-----cd-----|")
        let output = source.debounce(for: .seconds(2), scheduler: scheduler)
        #expect(scheduler.marbles(of: output) == "-----b------d---|")
    }

    @Test func debounceDropsTheValueStillWaitingWhenTheSourceFinishes() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a-b|")
        #expect(scheduler.marbles(of: source.debounce(for: .seconds(2), scheduler: scheduler)) == "----|")
        let delivering = source.debounce(for: .seconds(2), scheduler: scheduler, deliversPendingValueOnFinish: true)
        #expect(scheduler.marbles(of: delivering) == "----[b|]")
    }

    @Test func throttleLatestSendsTheNewestValueOfEachWindow() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "abc--d-e-----|")
        let output = source.throttle(for: .seconds(3), scheduler: scheduler, latest: true)
        #expect(scheduler.marbles(of: output) == "a--c--d--e---|")
    }

    @Test func throttleFirstSendsTheFirstValueOfEachWindow() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "abc--d-e-----|")
        let output = source.throttle(for: .seconds(3), scheduler: scheduler, latest: false)
        #expect(scheduler.marbles(of: output) == "a--b--d--e---|")
    }

    @Test func delayShiftsValuesAndTheCompletion() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a-b-c#")
        #expect(scheduler.marbles(of: source.delay(for: .seconds(2), scheduler: scheduler)) == "---a-b-c#")
    }

    @Test func timeoutFinishesAfterASilenceOrFailsWithTheCustomError() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a-b----c|")
        #expect(scheduler.marbles(of: source.timeout(.seconds(3), scheduler: scheduler)) == "-a-b--|")
        let failing = source.timeout(.seconds(3), scheduler: scheduler) { MarbleFailure() }
        #expect(scheduler.marbles(of: failing) == "-a-b--#")
        #expect(scheduler.marbles(of: source.timeout(.seconds(5), scheduler: scheduler)) == "-a-b----c|")
    }

    @Test func collectByTimeSendsEachIntervalsValuesAndTheRestBeforeFinished() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-ab--c-d|")
        let output = source.collect(.byTime(scheduler, .seconds(3))).map { $0.joined() }
        #expect(scheduler.marbles(of: output) == "---(ab)--c-[d|]")
    }

    @Test func collectByTimeOrCountSendsAFullGroupAtOnce() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-ab-c---d--|")
        let output = source.collect(.byTimeOrCount(scheduler, .seconds(3), 2)).map { $0.joined() }
        #expect(scheduler.marbles(of: output) == "--(ab)---c--d-|")
    }

    @Test func measureIntervalMeasuresTheTimeBetweenValues() {
        let scheduler = TestScheduler()
        let source = scheduler.publisher(marbles: "-a---b-c|")
        let output = source.measureInterval(using: scheduler).map { "\($0.magnitude / 1_000_000_000)" }
        #expect(scheduler.marbles(of: output) == "-1---4-2|")
    }

    @Test func switchToLatestFollowsTheNewestInnerTimeline() {
        let scheduler = TestScheduler()
        let outer = scheduler.publisher(marbles: "a---b------|")
        let output = outer.map { name in
            scheduler.publisher(marbles: name == "a" ? "-1-2-3|" : "--x-y|")
        }.switchToLatest()
        #expect(scheduler.marbles(of: output) == "-1-2--x-y--|")
    }
}
