import Dispatch
import Foundation
import Streams
import StreamsTesting
import Testing

/// A view model as an app would write it: typed against a queue, handed `DispatchQueue.main`
/// in the app and a test scheduler in tests.
final class SearchModel: @unchecked Sendable {
    let query = PassthroughSubject<String, Never>()
    private(set) var results: [String] = []
    private(set) var searches: [String] = []
    private var cancellable: AnyCancellable?

    init(scheduler: AnySchedulerOf<DispatchQueue>, catalogue: [String]) {
        cancellable =
            query
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .handleEvents(receiveOutput: { [weak self] in self?.searches.append($0) })
            .map { query in catalogue.filter { $0.hasPrefix(query) } }
            .receive(on: scheduler)
            .sink { [weak self] in self?.results = $0 }
    }
}

@Suite("AnyScheduler, DispatchQueue.test and DispatchQueue.immediate")
struct AnySchedulerTests {
    let catalogue = ["swift", "swiftui", "streams"]

    @Test func aViewModelTypedAgainstDispatchQueueRunsOnVirtualTime() {
        let queue = DispatchQueue.test
        let model = SearchModel(scheduler: queue.eraseToAnyScheduler(), catalogue: catalogue)
        model.query.send("s")
        queue.advance(by: .milliseconds(100))
        model.query.send("sw")
        queue.advance(by: .milliseconds(100))
        model.query.send("swi")
        queue.advance(by: .milliseconds(299))
        #expect(model.searches.isEmpty)
        queue.advance(by: .milliseconds(1))
        #expect(model.searches == ["swi"])
        #expect(model.results == ["swift", "swiftui"])
        model.query.send("st")
        queue.advance(by: .seconds(1))
        #expect(model.results == ["streams"])
    }

    @Test func theImmediateSchedulerSkipsTheWait() {
        let model = SearchModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler(), catalogue: catalogue)
        model.query.send("s")
        #expect(model.results == ["swift", "swiftui", "streams"])
        model.query.send("swiftu")
        #expect(model.searches == ["s", "swiftu"])
        #expect(model.results == ["swiftui"])
    }

    @Test func theAppPassesTheMainQueue() {
        let main: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
        let before = DispatchQueue.main.now
        #expect(main.now >= before)
        #expect(main.minimumTolerance == DispatchQueue.main.minimumTolerance)
    }

    @Test func anErasedSchedulerForwardsEverythingToTheWrappedOne() {
        let queue = DispatchQueue.test
        let erased = AnyScheduler(queue)
        let start = queue.now
        var log: [String] = []
        erased.schedule { log.append("now") }
        erased.schedule(after: start.advanced(by: .seconds(2)), tolerance: .zero, options: nil) { log.append("at 2") }
        let repeating = erased.schedule(after: start.advanced(by: .seconds(1)), interval: .seconds(1)) { log.append("every 1") }
        #expect(queue.scheduledCount == 3)
        queue.advance(by: .seconds(2))
        #expect(log == ["now", "every 1", "at 2", "every 1"])
        #expect(erased.now == start.advanced(by: .seconds(2)))
        repeating.cancel()
        queue.run()
        #expect(log.count == 4)
        #expect(erased.minimumTolerance == .zero)
    }

    @Test func theTestQueueStartsAtAFixedInstantAndEachAccessIsANewScheduler() {
        let first = DispatchQueue.test
        first.advance(by: .seconds(5))
        let second = DispatchQueue.test
        #expect(second.now == .init(DispatchTime(uptimeNanoseconds: 1)))
        #expect(first.now == second.now.advanced(by: .seconds(5)))
    }

    @Test func theImmediateSchedulerRunsDelayedWorkAtOnceAndRepeatingWorkOnce() {
        let immediate = DispatchQueue.immediate
        var runs = 0
        immediate.schedule(after: immediate.now.advanced(by: .seconds(60))) { runs += 1 }
        #expect(runs == 1)
        let repeating = immediate.schedule(after: immediate.now, interval: .seconds(1)) { runs += 1 }
        repeating.cancel()
        #expect(runs == 2)
        #expect(immediate.now == DispatchQueue.immediate.now)
    }

    @Test func anySchedulerMadeOfClosuresForwardsEachRequirement() {
        let queue = DispatchQueue.test
        let calls = Locked<[String]>([])
        let logging = AnySchedulerOf<DispatchQueue>(
            minimumTolerance: { queue.minimumTolerance },
            now: { queue.now },
            scheduleImmediately: { options, action in
                calls.withLock { $0.append("now") }
                queue.schedule(options: options, action)
            },
            delayed: { date, tolerance, options, action in
                calls.withLock { $0.append("later") }
                queue.schedule(after: date, tolerance: tolerance, options: options, action)
            },
            interval: { date, interval, tolerance, options, action in
                calls.withLock { $0.append("repeating") }
                return queue.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            })
        let runs = Locked(0)
        logging.schedule { runs.withLock { $0 += 1 } }
        logging.schedule(after: logging.now.advanced(by: .seconds(1))) { runs.withLock { $0 += 1 } }
        let repeating = logging.schedule(after: logging.now, interval: .seconds(1)) { runs.withLock { $0 += 1 } }
        queue.advance(by: .seconds(1))
        repeating.cancel()
        #expect(calls.withLock { $0 } == ["now", "later", "repeating"])
        #expect(runs.withLock { $0 } == 4)
        #expect(logging.now == queue.now)
    }

    @Test func namedErasedSchedulersHaveTheirQueuesTime() {
        let main: AnySchedulerOf<DispatchQueue> = .main
        let global: AnySchedulerOf<DispatchQueue> = .global(qos: .utility)
        let immediate: AnySchedulerOf<DispatchQueue> = .immediate
        let operationQueue: AnySchedulerOf<OperationQueue> = .main
        #expect(main.minimumTolerance == DispatchQueue.main.minimumTolerance)
        #expect(global.minimumTolerance == DispatchQueue.global(qos: .utility).minimumTolerance)
        #expect(immediate.now == DispatchQueue.immediate.now)
        #expect(operationQueue.minimumTolerance == OperationQueue.main.minimumTolerance)
        let ran = Locked(0)
        let runLoop: AnySchedulerOf<RunLoop> = .immediate
        let operation: AnySchedulerOf<OperationQueue> = .immediate
        runLoop.schedule { ran.withLock { $0 += 1 } }
        operation.schedule { ran.withLock { $0 += 1 } }
        OperationQueue.test.schedule { ran.withLock { $0 += 1 } }
        RunLoop.test.schedule { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 2, "the test schedulers wait for an advance")
        #expect(OperationQueue.test.now == .init(Date(timeIntervalSince1970: 0)))
        #expect(RunLoop.test.now == .init(Date(timeIntervalSince1970: 0)))
    }
}
