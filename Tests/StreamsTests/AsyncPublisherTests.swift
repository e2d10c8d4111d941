import Streams
import StreamsTesting
import Testing

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
}
