// A test file written against pointfreeco's combine-schedulers 1.x API, using each of the APIs
// StreamsTesting provides in its place once. Only the imports differ from the file a
// combine-schedulers user would write: `Streams` and `StreamsTesting` instead of `Combine` and
// `CombineSchedulers`. Keep it that way: use nothing here that combine-schedulers lacks.
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite("Drop-in for combine-schedulers")
@MainActor
struct CombineSchedulersDropInTests {
    final class Box<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    @Test func asyncSleep() async throws {
        let testScheduler = DispatchQueue.test
        let task = Task {
            try await testScheduler.sleep(for: .seconds(1))
        }
        await testScheduler.advance(by: .seconds(1))
        try await task.value
    }

    @Test func asyncSleepUntil() async throws {
        let testScheduler = DispatchQueue.test
        let deadline = testScheduler.now.advanced(by: .seconds(2))
        let woke = Box(false)
        let task = Task {
            try await testScheduler.sleep(until: deadline)
            woke.value = true
        }
        await testScheduler.advance(to: deadline.advanced(by: .seconds(-1)))
        #expect(!woke.value)
        await testScheduler.advance(to: deadline)
        #expect(woke.value)
        try await task.value
    }

    @Test func asyncTimer() async {
        let testScheduler = DispatchQueue.test
        let task = Task {
            await testScheduler.timer(interval: .seconds(1))
                .prefix(10)
                .reduce(into: 0) { @Sendable accum, _ in accum += 1 }
        }
        await testScheduler.advance(by: .seconds(10))
        let count = await task.value
        #expect(count == 10)
    }

    @Test func asyncRun() async {
        let testScheduler = DispatchQueue.test
        let task = Task {
            await testScheduler.timer(interval: .seconds(1))
                .prefix(10)
                .reduce(into: 0) { @Sendable accum, _ in accum += 1 }
        }
        await testScheduler.run()
        let count = await task.value
        #expect(count == 10)
    }

    @Test func cancellingASleepThrows() async {
        let testScheduler = DispatchQueue.test
        let task = Task {
            try await testScheduler.sleep(for: .seconds(10))
        }
        await testScheduler.advance(by: .seconds(1))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func measure() {
        let testScheduler = DispatchQueue.test
        let elapsed = testScheduler.measure { testScheduler.advance(by: .seconds(3)) }
        #expect(elapsed == .seconds(3))
    }

    @Test func timerPublisher() {
        let scheduler = DispatchQueue.test
        var cancellables: Set<AnyCancellable> = []
        let output = Box<[Int]>([])
        scheduler.timerPublisher(every: 1)
            .autoconnect()
            .sink { _ in output.value.append(output.value.count) }
            .store(in: &cancellables)
        #expect(output.value == [])
        scheduler.advance(by: 1)
        #expect(output.value == [0])
        scheduler.advance(by: 1_000)
        #expect(output.value == Array(0...1_000))
    }

    @Test func interleavingTimers() {
        let scheduler = DispatchQueue.test
        var cancellables: Set<AnyCancellable> = []
        let output = Box<[Int]>([])
        Publishers.MergeMany(
            Publishers.Timer(every: .seconds(2), scheduler: scheduler)
                .autoconnect()
                .handleEvents(receiveOutput: { _ in output.value.append(1) }),
            Publishers.Timer(every: .seconds(3), scheduler: scheduler)
                .autoconnect()
                .handleEvents(receiveOutput: { _ in output.value.append(2) })
        )
        .sink { _ in }
        .store(in: &cancellables)
        scheduler.advance(by: 2)
        #expect(output.value == [1])
        scheduler.advance(by: 1)
        #expect(output.value == [1, 2])
        scheduler.advance(by: 3)
        #expect(output.value == [1, 2, 1, 1, 2])
    }

    @Test func timerCompletion() {
        let scheduler = DispatchQueue.test
        var cancellables: Set<AnyCancellable> = []
        let count = Box(0)
        Publishers.Timer(every: 1, scheduler: scheduler)
            .autoconnect()
            .prefix(3)
            .sink { _ in count.value += 1 }
            .store(in: &cancellables)
        scheduler.run()
        #expect(count.value == 3)
    }

    @Test func uiSchedulerRunsAtOnceOnTheMainThread() {
        let ran = Box(false)
        UIScheduler.shared.schedule { ran.value = true }
        #expect(ran.value)
    }

    @Test func unimplementedSchedulers() {
        let dispatch: UnimplementedSchedulerOf<DispatchQueue> = DispatchQueue.unimplemented
        let operation: UnimplementedSchedulerOf<OperationQueue> = OperationQueue.unimplemented("operation")
        let runLoop: UnimplementedSchedulerOf<RunLoop> = RunLoop.unimplemented("runLoop")
        let erased: AnySchedulerOf<DispatchQueue> = .unimplemented("erased")
        let typed = UnimplementedScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
            "typed", now: .init(.now()))
        withKnownIssue {
            dispatch.schedule {}
        } matching: { issue in
            issue.description.contains("DispatchQueue")
        }
        withKnownIssue {
            operation.schedule {}
            runLoop.schedule {}
            erased.schedule {}
            typed.schedule {}
        }
        #expect(DispatchQueue.unimplemented("mainQueue").prefix == "mainQueue")
    }

    @Test func immediateAndTypeErasure() {
        let scheduler: AnySchedulerOf<DispatchQueue> = .immediate
        let immediate: ImmediateSchedulerOf<DispatchQueue> = DispatchQueue.immediate
        let test: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let ran = Box(0)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { ran.value += 1 }
        immediate.schedule { ran.value += 1 }
        test.eraseToAnyScheduler().schedule { ran.value += 1 }
        test.advance()
        #expect(ran.value == 3)
    }
}
