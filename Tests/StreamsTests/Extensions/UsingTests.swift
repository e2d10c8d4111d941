import Streams
import StreamsExt
import StreamsTesting
import Testing

/// A resource that records its life in a shared log.
private final class Resource: Cancellable, @unchecked Sendable {
    let log: Locked<[String]>
    let id: Int

    init(_ id: Int, log: Locked<[String]>) {
        self.id = id
        self.log = log
        log.withLock { $0.append("make \(id)") }
    }

    func cancel() {
        log.withLock { $0.append("dispose \(id)") }
    }
}

/// The next number from `count`, from 1.
private func next(_ count: Locked<Int>) -> Int {
    count.withLock { value in
        value += 1
        return value
    }
}

/// The disposals in `log`.
private func disposals(_ log: Locked<[String]>) -> [String] {
    let all: [String] = log.withLock { $0 }
    return all.filter { $0.hasPrefix("dispose") }
}

/// What `log` holds.
private func entries(_ log: Locked<[String]>) -> [String] {
    log.withLock { $0 }
}

@Suite("Publishers.Using")
struct UsingTests {
    /// A `Using` over `upstream` whose resources log into `log`, numbered from 1.
    private func using(
        _ upstream: ManualUpstream<Int, TestError>, log: Locked<[String]>
    ) -> Publishers.Using<Resource, ManualUpstream<Int, TestError>> {
        let count = Locked(0)
        return Publishers.Using(
            resourceFactory: {
                Resource(
                    count.withLock {
                        $0 += 1; return $0
                    }, log: log)
            },
            publisherFactory: { resource in
                log.withLock { $0.append("publisher for \(resource.id)") }
                return upstream
            })
    }

    @Test func theResourceIsMadeAtSubscriptionAndDisposedOfAfterTheCompletion() {
        let log = Locked<[String]>([])
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let publisher = using(upstream, log: log)
        #expect(entries(log).isEmpty)
        let subscriber = TestSubscriber<Int, TestError>(onValue: { value in
            log.withLock { $0.append("value \(value)") }
        })
        publisher.subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "Using")
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.completions == [.finished])
        #expect(entries(log) == ["make 1", "publisher for 1", "value 1", "dispose 1"])
    }

    @Test func aFailureDisposesOfTheResourceAfterReachingTheDownstream() {
        let log = Locked<[String]>([])
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        using(upstream, log: log).subscribe(subscriber)
        upstream.fail()
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(entries(log).last == "dispose 1")
    }

    @Test func cancelCancelsTheUpstreamThenDisposesOfTheResourceOnce() {
        let log = Locked<[String]>([])
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        using(upstream, log: log).subscribe(subscriber)
        upstream.subscriptions.last?.onCancel = { log.withLock { $0.append("upstream cancelled") } }
        #expect(upstream.subscriptions.last?.requests == [.max(3)])
        subscriber.cancel()
        subscriber.cancel()
        upstream.ignoresCancel = true
        upstream.send(1)
        upstream.finish()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions.isEmpty)
        #expect(entries(log) == ["make 1", "publisher for 1", "upstream cancelled", "dispose 1"])
    }

    @Test func cancelAfterTheCompletionDisposesOfNothingMore() {
        let log = Locked<[String]>([])
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        let subscriber = TestSubscriber<Int, TestError>()
        using(upstream, log: log).subscribe(subscriber)
        upstream.finish()
        subscriber.cancel()
        #expect(disposals(log) == ["dispose 1"])
    }

    @Test func cancelFromInsideTheDownstreamDisposesOnce() {
        let log = Locked<[String]>([])
        let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
        var cancellable: AnyCancellable?
        cancellable = using(upstream, log: log).sink(
            receiveCompletion: { _ in },
            receiveValue: { _ in cancellable?.cancel() })
        upstream.ignoresCancel = true
        upstream.send(1)
        upstream.finish()
        #expect(disposals(log) == ["dispose 1"])
        _ = cancellable
    }

    @Test func eachSubscriberHasItsOwnResource() {
        let log = Locked<[String]>([])
        let subject = PassthroughSubject<Int, TestError>()
        let count = Locked(0)
        let publisher = Publishers.Using(
            resourceFactory: {
                Resource(
                    count.withLock {
                        $0 += 1; return $0
                    }, log: log)
            },
            publisherFactory: { _ in subject })
        let first = TestSubscriber<Int, TestError>()
        let second = TestSubscriber<Int, TestError>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        first.cancel()
        subject.send(7)
        #expect(second.values == [7])
        #expect(entries(log) == ["make 1", "make 2", "dispose 1"])
        subject.send(completion: .finished)
        #expect(entries(log).last == "dispose 2")
    }

    @Test func anyResourceCanBeDisposedOfByAClosure() {
        let closed = Locked<[String]>([])
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.Using(
            resourceFactory: { "handle" },
            publisherFactory: { handle in Just(handle.count) },
            dispose: { handle in closed.withLock { $0.append(handle) } }
        ).subscribe(subscriber)
        #expect(subscriber.values == [6])
        #expect(entries(closed) == ["handle"])
    }

    @Test func theAnyPublisherSpellingsMakeAndDisposeAsTheType() {
        let log = Locked<[String]>([])
        let count = Locked(0)
        let subscriber = TestSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.using({ Resource(next(count), log: log) }) { resource in Just(resource.id) }
            .subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(entries(log) == ["make 1", "dispose 1"])
        let closed = Locked<[String]>([])
        let cancelled = TestSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.using({ "handle" }, { _ in Empty(completeImmediately: false) }) { handle in
            closed.withLock { $0.append(handle) }
        }.subscribe(cancelled)
        #expect(entries(closed).isEmpty)
        cancelled.cancel()
        #expect(entries(closed) == ["handle"])
    }

    @Test func nothingIsHeldAfterTheCancelOrTheCompletion() {
        for completes in [false, true] {
            weak var resource: Resource?
            weak var downstream: TestSubscriber<Int, TestError>?
            let upstream = ManualUpstream<Int, TestError>(failure: .oops) { $0 }
            do {
                let log = Locked<[String]>([])
                let subscriber = TestSubscriber<Int, TestError>()
                Publishers.Using(
                    resourceFactory: {
                        let made = Resource(1, log: log)
                        resource = made
                        return made
                    },
                    publisherFactory: { _ in upstream }
                ).subscribe(subscriber)
                #expect(resource != nil)
                if completes { upstream.finish() } else { subscriber.cancel() }
                downstream = subscriber
            }
            #expect(resource == nil)
            #expect(downstream == nil)
        }
    }

    @Test func aCancelRacingTheCompletionDisposesExactlyOnce() async {
        for _ in 0..<200 {
            let log = Locked<[String]>([])
            let subject = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            Publishers.Using(
                resourceFactory: { Resource(1, log: log) },
                publisherFactory: { _ in subject }
            ).subscribe(subscriber)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { subject.send(completion: .finished) }
                group.addTask { subscriber.cancel() }
            }
            #expect(disposals(log).count == 1)
        }
    }
}
