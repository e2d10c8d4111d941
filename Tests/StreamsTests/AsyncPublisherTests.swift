import Streams
import StreamsExt
import StreamsTesting
import Testing

/// Yields until `condition` holds, at most a fixed number of times; whether it held.
private func yieldUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Starts `count` tasks that each call `next` once, one after the other: each starts once the
/// one before has asked upstream for its value (`asked` yields once per request). `finished`
/// counts the calls that have returned.
private func startWaitingCalls(
    _ count: Int,
    asked: inout AsyncStream<Void>.Iterator,
    finished: Locked<Int>,
    next: @escaping @Sendable () async throws -> Int?
) async -> [Task<Result<Int?, any Error>, Never>] {
    var calls: [Task<Result<Int?, any Error>, Never>] = []
    for _ in 0..<count {
        calls.append(
            Task {
                defer { finished.withLock { $0 += 1 } }
                do { return .success(try await next()) } catch { return .failure(error) }
            }
        )
        await asked.next()
    }
    return calls
}

@Suite("values: AsyncPublisher and AsyncThrowingPublisher")
struct AsyncPublisherTests {
    @Test func iteratesEveryValueAskingForOneAtATime() async {
        let requests = Log<Subscribers.Demand>()
        var seen: [Int] = []
        for await value in [1, 2, 3].publisher.handleEvents(receiveRequest: { requests.append($0) }).values {
            seen.append(value)
        }
        #expect(seen == [1, 2, 3])
        // One request per value: the sequence finishes along with its last value, so the
        // fourth `next()` finds the completion without asking.
        #expect(requests.items == [.max(1), .max(1), .max(1)])
    }

    @Test func throwsTheFailureOnceThenEnds() async throws {
        let publisher = [1].publisher.setFailureType(to: TestError.self).append(Fail(error: .oops))
        var iterator = publisher.values.makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        do {
            _ = try await iterator.next()
            Issue.record("expected the failure")
        } catch let error as TestError {
            #expect(error == .oops)
        }
        #expect(try await iterator.next() == nil)
    }

    /// Combine declares `next()` as plain `async throws`; code written for it stores the call in
    /// an untyped closure and casts the error back. With a typed `throws(P.Failure)` the
    /// `where` clause below would not compile and the `as` cast would warn.
    @Test func nextThrowsUntypedAsInCombine() async {
        func requiresUntypedThrows<S: AsyncSequence>(_: S) where S.Failure == any Error, S.AsyncIterator.Failure == any Error {}
        requiresUntypedThrows(Fail<Int, TestError>(error: .oops).values)

        let next: () async throws -> Int? = {
            var iterator = Fail<Int, TestError>(error: .oops).values.makeAsyncIterator()
            return try await iterator.next()
        }
        do {
            _ = try await next()
            Issue.record("expected the failure")
        } catch let error as TestError {
            #expect(error == .oops)
        } catch {
            Issue.record("expected TestError, got \(error)")
        }
    }

    @Test func aSubjectsValuesArriveAsTheLoopAsks() async {
        let subject = PassthroughSubject<Int, Never>()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        let values = subject.handleEvents(receiveRequest: { _ in askedContinuation.yield() }).values
        let collector = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        var signals = asked.makeAsyncIterator()
        for value in 1...3 {
            await signals.next()
            subject.send(value)
        }
        await signals.next()
        subject.send(completion: .finished)
        #expect(await collector.value == [1, 2, 3])
    }

    @Test func cancellingTheTaskCancelsTheSubscription() async {
        let cancelled = Log<Void>()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        let values = PassthroughSubject<Int, Never>()
            .handleEvents(receiveCancel: { cancelled.append(()) }, receiveRequest: { _ in askedContinuation.yield() })
            .values
        let loop = Task {
            var count = 0
            for await _ in values { count += 1 }
            return count
        }
        var signals = asked.makeAsyncIterator()
        await signals.next()
        loop.cancel()
        #expect(await loop.value == 0)
        #expect(cancelled.items.count == 1)
    }

    @Test func droppingTheIteratorCancelsTheSubscription() async {
        let cancelled = Log<Void>()
        let subject = CurrentValueSubject<Int, Never>(7)
        do {
            var iterator = subject.handleEvents(receiveCancel: { cancelled.append(()) }).values.makeAsyncIterator()
            #expect(await iterator.next() == 7)
            #expect(cancelled.items.isEmpty)
        }
        #expect(cancelled.items.count == 1)
    }

    @Test func anAlreadyCancelledTaskGetsNil() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = PassthroughSubject<Int, Never>().values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await task.value == nil)
    }

    @Test func copiesOfAnIteratorShareItsOneSubscription() async {
        let subscriptions = Log<Void>()
        let values = [1, 2, 3, 4].publisher.handleEvents(receiveSubscription: { _ in subscriptions.append(()) }).values
        var iterator = values.makeAsyncIterator()
        var copy = iterator
        #expect(await iterator.next() == 1)
        #expect(await copy.next() == 2)
        #expect(await iterator.next() == 3)
        #expect(subscriptions.items.count == 1)
        var other = values.makeAsyncIterator()
        #expect(await other.next() == 1)
        #expect(subscriptions.items.count == 2)
    }

    // The hang: the bridge kept one waiting call, so with several tasks in `next()` all but the
    // last were never resumed. Each test below checks, a bounded number of times, that every
    // call has returned before awaiting the tasks.

    @Test func concurrentCallsAreAllServedInTheOrderTheyWereMade() async throws {
        let subject = PassthroughSubject<Int, TestError>()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        // Each task calls `next()` on its own copy; the copies share one thread-safe bridge.
        nonisolated(unsafe) let iterator = subject.handleEvents(receiveRequest: { _ in askedContinuation.yield() }).values
            .makeAsyncIterator()
        var signals = asked.makeAsyncIterator()
        let finished = Locked(0)
        let calls = await startWaitingCalls(3, asked: &signals, finished: finished) {
            var copy = iterator
            return try await copy.next()
        }
        for value in [10, 20, 30] {
            subject.send(value)
        }
        try #require(await yieldUntil { finished.withLock { $0 } == 3 }, "calls left waiting")
        var seen: [Int?] = []
        for call in calls {
            seen.append(try await call.value.get())
        }
        #expect(seen == [10, 20, 30])
    }

    @Test func cancellingOneWaitingTaskResumesEveryWaitingCall() async throws {
        let cancels = Locked(0)
        let subject = PassthroughSubject<Int, TestError>()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        nonisolated(unsafe) let iterator =
            subject
            .handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }, receiveRequest: { _ in askedContinuation.yield() })
            .values.makeAsyncIterator()
        var signals = asked.makeAsyncIterator()
        let finished = Locked(0)
        let calls = await startWaitingCalls(3, asked: &signals, finished: finished) {
            var copy = iterator
            return try await copy.next()
        }
        calls[1].cancel()
        try #require(await yieldUntil { finished.withLock { $0 } == 3 }, "calls left waiting")
        for call in calls {
            #expect(try await call.value.get() == nil)
        }
        #expect(cancels.withLock { $0 } == 1)
    }

    @Test func theCompletionResumesEveryWaitingCall() async throws {
        let subject = PassthroughSubject<Int, TestError>()
        let (asked, askedContinuation) = AsyncStream.makeStream(of: Void.self)
        // Each task calls `next()` on its own copy; the copies share one thread-safe bridge.
        nonisolated(unsafe) let iterator = subject.handleEvents(receiveRequest: { _ in askedContinuation.yield() }).values
            .makeAsyncIterator()
        var signals = asked.makeAsyncIterator()
        let finished = Locked(0)
        let calls = await startWaitingCalls(3, asked: &signals, finished: finished) {
            var copy = iterator
            return try await copy.next()
        }
        subject.send(completion: .failure(.oops))
        try #require(await yieldUntil { finished.withLock { $0 } == 3 }, "calls left waiting")
        await #expect(throws: TestError.oops) { try await calls[0].value.get() }
        #expect(try await calls[1].value.get() == nil)
        #expect(try await calls[2].value.get() == nil)
    }
}
