import Dispatch
import Foundation
import Streams
import StreamsExt
import StreamsTesting
import Testing

/// One item of a decoded response, as app code has them.
private struct Item: Sendable {
    let id: Int
    let name: String
}

/// Whether the caller runs on the main queue, the main actor's executor. (On Linux the main queue
/// can be served by a thread other than the process's first, so `Thread.isMainThread` cannot
/// tell.)
private enum MainQueue {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) ?? false }
}

/// The pipeline shapes the tests build inside a main-actor view model.
private enum Shape: Sendable {
    // Shapes that stop the process when a value comes from a background thread: each has a
    // closure written inside another closure, passed to the standard library, before
    // `receive(on:)`.
    case arrayMapInsideMap
    case optionalMapInsideMap
    case containsInsideFilter
    case arrayMapInsideHandleEvents
    case filterInsideFlatMap
    case arrayMapInsideSink

    // Shapes that are safe.
    case keyPathInsideMap
    case operatorClosureAlone
    case receiveOnMainFirst
    case sendableTransform
    case nonisolatedFunction
    case flatMapAfterReceiveOnMain

    /// The shapes that stop the process when the value comes from a background thread.
    static let stopping: [Shape] = [
        .arrayMapInsideMap, .optionalMapInsideMap, .containsInsideFilter, .arrayMapInsideHandleEvents,
        .filterInsideFlatMap, .arrayMapInsideSink,
    ]
}

/// A view model of the usual app shape: main-actor isolated, building its pipelines in its own
/// methods, so that every closure written here is inferred to be isolated to the main actor.
@MainActor
private final class ItemsModel {
    /// Where responses come from; the tests send into it from a background thread.
    let responses = PassthroughSubject<[Item], Never>()
    /// What the screen shows: main-actor state.
    private(set) var rows: [String] = []
    /// For each closure that recorded it, whether it ran on the main queue, in order.
    let ranOnMain = Locked<[Bool]>([])
    /// What the pipelines logged on the way.
    let log = Locked<[String]>([])
    /// Signalled once for each value that reached the end of the pipeline.
    let delivered = DispatchSemaphore(value: 0)
    private var cancellables = Set<AnyCancellable>()

    /// The rows for some items: a pure transform, outside the main actor.
    nonisolated static func rows(for items: [Item]) -> [String] {
        items.map { "\($0.id): \($0.name)" }
    }

    /// Builds the pipeline of `shape` from `responses` to `rows`.
    func build(_ shape: Shape) {
        _ = MainQueue.key
        let ranOnMain = ranOnMain
        let delivered = delivered
        let log = log
        let record: @Sendable () -> Void = { ranOnMain.withLock { $0.append(MainQueue.isCurrent) } }
        switch shape {
        case .arrayMapInsideMap:
            responses
                .map { items in items.map { "\($0.id): \($0.name)" } }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] rows in
                    self?.rows = rows
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .optionalMapInsideMap:
            responses
                .map { items in items.first.map { $0.name } }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] name in
                    self?.rows = name.map { [$0] } ?? []
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .containsInsideFilter:
            responses
                .filter { items in items.contains { !$0.name.isEmpty } }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] items in
                    self?.rows = Self.rows(for: items)
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .arrayMapInsideHandleEvents:
            responses
                .handleEvents(receiveOutput: { items in
                    let names = items.map { $0.name }
                    log.withLock { $0 += names }
                })
                .receive(on: DispatchQueue.main)
                .sink { [weak self] items in
                    self?.rows = Self.rows(for: items)
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .filterInsideFlatMap:
            responses
                .flatMap { items in Just(items.filter { !$0.name.isEmpty }) }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] items in
                    self?.rows = Self.rows(for: items)
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .arrayMapInsideSink:
            responses
                .sink { items in
                    let names = items.map { $0.name }
                    log.withLock { $0 += names }
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .keyPathInsideMap:
            responses
                .map { items in
                    record()
                    return items.map(\.name)
                }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] rows in
                    self?.rows = rows
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .operatorClosureAlone:
            responses
                .map { items in
                    record()
                    return items.count
                }
                .filter { count in
                    record()
                    return count > 0
                }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] count in
                    self?.rows = ["\(count) items"]
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .receiveOnMainFirst:
            responses
                .receive(on: DispatchQueue.main)
                .map { items in
                    record()
                    return items.map { "\($0.id): \($0.name)" }
                }
                .handleEvents(receiveOutput: { [weak self] rows in
                    record()
                    self?.rows = []
                    _ = rows.filter { $0.isEmpty }
                })
                .sink { [weak self] rows in
                    record()
                    self?.rows = rows.map { $0 }
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .sendableTransform:
            responses
                .map { @Sendable items in
                    record()
                    return items.map { "\($0.id): \($0.name)" }
                }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] rows in
                    self?.rows = rows
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .nonisolatedFunction:
            responses
                .map(Self.rows(for:))
                .receive(on: DispatchQueue.main)
                .sink { [weak self] rows in
                    record()
                    self?.rows = rows
                    delivered.signal()
                }
                .store(in: &cancellables)
        case .flatMapAfterReceiveOnMain:
            responses
                .receive(on: DispatchQueue.main)
                .flatMap { items in
                    record()
                    return Just(items.filter { !$0.name.isEmpty }.map { $0.name })
                }
                .sink { [weak self] rows in
                    record()
                    self?.rows = rows
                    delivered.signal()
                }
                .store(in: &cancellables)
        }
    }

    /// Fills `rows` by iterating the publisher's values in a main-actor task.
    func showRows<P: Publisher>(from publisher: P) -> Task<Void, Never> where P.Output == [Item], P.Failure == Never {
        let delivered = delivered
        return Task { [weak self] in
            for await rows in publisher.map(Self.rows(for:)).values {
                self?.rows = rows
                self?.ranOnMain.withLock { $0.append(MainQueue.isCurrent) }
                delivered.signal()
            }
        }
    }

    /// Builds `shape`, sends one response into it from a background thread, and waits until
    /// the pipeline has delivered it. Returns whether everything happened within the limit.
    static func sendFromBackground(through shape: Shape) async -> Bool {
        let model = ItemsModel()
        model.build(shape)
        return await model.sendFromBackground([Item(id: 1, name: "one"), Item(id: 2, name: "two")])
    }

    /// Sends `items` into `responses` from a background thread and waits until the pipeline
    /// delivered them, without blocking the main actor (deliveries may need it).
    func sendFromBackground(_ items: [Item]) async -> Bool {
        let responses = responses
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            responses.send(items)
            sent.signal()
        }
        guard await signalled(sent) else { return false }
        return await signalled(delivered)
    }
}

/// Waits, without blocking the caller's actor, until `semaphore` is signalled; gives up after a
/// limit generous enough that only a bug reaches it.
private func signalled(_ semaphore: DispatchSemaphore) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(returning: semaphore.wait(timeout: .now() + .seconds(30)) == .success)
        }
    }
}

/// Pipelines built inside a `@MainActor` type and fed from a background thread: the shapes the
/// language stops at run time, and the shapes that are safe (Docs/Concurrency.md).
@Suite("Main-actor pipelines fed from a background thread")
@MainActor
struct MainActorIsolationTests {
    private static let items = [Item(id: 1, name: "one"), Item(id: 2, name: "two")]

    /// Checks that an exit test's process was stopped by a signal, as the isolation check stops
    /// it, rather than exiting with a failure status.
    static func expectStoppedBySignal(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .signal = result?.exitStatus else {
            Issue.record(
                "expected a stop by signal, got \(String(describing: result?.exitStatus))", sourceLocation: sourceLocation)
            return
        }
    }

    // A closure written inside an operator's closure and passed to the standard library (here
    // `Array.map`, `Optional.map`, `contains(where:)`, `filter`) is main-actor isolated, and the
    // standard library is built in the Swift 5 language mode, so the compiler checks at the top
    // of that closure that it runs on the main actor. Before `receive(on:)` it runs on the
    // sender's thread: the check stops the process.

    @Test func anArrayMapInsideMapBeforeReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .arrayMapInsideMap)
        }
        Self.expectStoppedBySignal(stop)
    }

    @Test func anOptionalMapInsideMapBeforeReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .optionalMapInsideMap)
        }
        Self.expectStoppedBySignal(stop)
    }

    @Test func aContainsInsideFilterBeforeReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .containsInsideFilter)
        }
        Self.expectStoppedBySignal(stop)
    }

    @Test func anArrayMapInsideHandleEventsBeforeReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .arrayMapInsideHandleEvents)
        }
        Self.expectStoppedBySignal(stop)
    }

    @Test func aFilterInsideFlatMapBeforeReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .filterInsideFlatMap)
        }
        Self.expectStoppedBySignal(stop)
    }

    @Test func anArrayMapInsideASinkWithoutReceiveOnStopsTheProcess() async {
        let stop = await #expect(processExitsWith: .failure) {
            _ = await ItemsModel.sendFromBackground(through: .arrayMapInsideSink)
        }
        Self.expectStoppedBySignal(stop)
    }

    /// The same pipelines deliver when the value arrives on the main actor: what stops them
    /// above is the thread, nothing else.
    @Test(arguments: Shape.stopping)
    fileprivate func theSamePipelinesDeliverWhenTheValueArrivesOnTheMainActor(_ shape: Shape) async {
        let model = ItemsModel()
        model.build(shape)
        model.responses.send(Self.items)
        #expect(await signalled(model.delivered))
    }

    // The closures passed to Streams' operators themselves are not checked (Streams is built in
    // the Swift 6 language mode): they run on the sender's thread even though the compiler
    // infers them to be main-actor isolated. That is safe only while they touch no main-actor
    // state, which is why the guide says to move the hop first or to mark them `@Sendable`.

    @Test func aKeyPathInsideMapBeforeReceiveOnRunsOnTheSendersThread() async {
        let model = ItemsModel()
        model.build(.keyPathInsideMap)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [false])
        #expect(model.rows == ["one", "two"])
    }

    @Test func operatorClosuresWithNoNestedClosureRunOnTheSendersThreadUnchecked() async {
        let model = ItemsModel()
        model.build(.operatorClosureAlone)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [false, false])
        #expect(model.rows == ["2 items"])
    }

    @Test func everyClosureAfterReceiveOnMainRunsOnTheMainActor() async {
        let model = ItemsModel()
        model.build(.receiveOnMainFirst)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [true, true, true])
        #expect(model.rows == ["1: one", "2: two"])
    }

    @Test func aSendableTransformBeforeReceiveOnIsNonisolatedAndSafe() async {
        let model = ItemsModel()
        model.build(.sendableTransform)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [false])
        #expect(model.rows == ["1: one", "2: two"])
    }

    @Test func aNonisolatedStaticFunctionBeforeReceiveOnIsSafe() async {
        let model = ItemsModel()
        model.build(.nonisolatedFunction)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [true])
        #expect(model.rows == ["1: one", "2: two"])
    }

    @Test func aFlatMapAfterReceiveOnMainRunsOnTheMainActor() async {
        let model = ItemsModel()
        model.build(.flatMapAfterReceiveOnMain)
        #expect(await model.sendFromBackground(Self.items))
        #expect(model.ranOnMain.withLock { $0 } == [true, true])
        #expect(model.rows == ["one", "two"])
    }

    @Test func valuesInAMainActorTaskDeliversOnTheMainActor() async {
        let model = ItemsModel()
        let source = Just(Self.items).subscribe(on: DispatchQueue.global())
        let task = model.showRows(from: source)
        #expect(await signalled(model.delivered))
        #expect(model.ranOnMain.withLock { $0 } == [true])
        #expect(model.rows == ["1: one", "2: two"])
        task.cancel()
        await task.value
    }
}
