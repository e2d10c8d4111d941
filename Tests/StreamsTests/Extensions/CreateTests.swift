import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("AnyPublisher.create")
struct CreateTests {
    @Test func sendsWhatTheFactorySends() {
        let subscriber = TestSubscriber<Int, TestError>()
        AnyPublisher<Int, TestError>.create { subscriber in
            subscriber.send(1)
            subscriber.send(2)
            subscriber.send(completion: .failure(.oops))
            subscriber.send(3)
            return AnyCancellable {}
        }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func theSubscriptionDescribesItselfAsCombineExtsWithItsTypes() {
        let subscriber = TestSubscriber<String, TestError>(initialDemand: nil)
        AnyPublisher<String, TestError>.create { _ in AnyCancellable {} }.subscribe(subscriber)
        #expect(String(describing: subscriber.subscription!) == "Create.Subscription<String, TestError>")
        subscriber.cancel()
    }

    @Test func theInitializerFormIsCreate() {
        // CombineExt's `AnyPublisher<Output, Failure> { subscriber in ... }`.
        let cancels = Log<Void>()
        let subscriber = TestSubscriber<String, TestError>(initialDemand: .max(1))
        let greetings = AnyPublisher<String, TestError> { subscriber in
            subscriber.send("Hello")
            subscriber.send("World")
            subscriber.send(completion: .failure(.oops))
            return AnyCancellable { cancels.append(()) }
        }
        greetings.subscribe(subscriber)
        #expect(subscriber.values == ["Hello"])
        #expect(subscriber.completions == [.failure(.oops)])
        #expect(cancels.items.count == 1)
    }

    @Test func theFactoryRunsForEverySubscriber() {
        let runs = Log<Int>()
        let publisher = Publishers.Create<Int, Never> { subscriber in
            runs.append(1)
            subscriber.send(runs.items.count)
            return AnyCancellable {}
        }
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test func valuesWithoutDemandAreKeptInOrder() {
        var handle: Publishers.Create<Int, Never>.Subscriber?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable {}
        }.subscribe(subscriber)
        for value in 1...4 { handle?.send(value) }
        #expect(subscriber.values == [1])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == nil)
    }

    @Test func afterTheFirstRequestACompletionDropsTheValuesItsDemandDoesNotCover() {
        let cancels = Log<Void>()
        var handle: Publishers.Create<Int, Never>.Subscriber?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable { cancels.append(()) }
        }.subscribe(subscriber)
        for value in 1...4 { handle?.send(value) }
        handle?.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
        #expect(cancels.items.count == 1)
        subscriber.request(.max(3))
        #expect(subscriber.values == [1])
    }

    @Test func beforeTheFirstRequestACompletionWaitsAndThatRequestDeliversWhatItCovers() {
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        AnyPublisher<Int, TestError>.create { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.send(completion: .failure(.oops))
            return AnyCancellable {}
        }.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completions == [.failure(.oops)])
    }

    @Test func aFirstRequestOfNoneStillLetsTheCompletionThrough() {
        // CombineExt's rule: a subscriber that asks for nothing still receives the completion.
        let subscriber = TestSubscriber<Int, Never>(initialDemand: Subscribers.Demand.none)
        AnyPublisher<Int, Never>.create { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completions == [.finished])
    }

    @Test func aCompletionSentWhileAValueIsDeliveredFollowsTheValuesTheDemandCovers() {
        var handle: Publishers.Create<Int, Never>.Subscriber?
        var received: [Int] = []
        var completions = 0
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: { value in
                received.append(value)
                if value == 1 {
                    for next in 2...4 { handle?.send(next) }
                    handle?.send(completion: .finished)
                    #expect(completions == 0)
                }
                return .none
            },
            receiveCompletion: { _ in completions += 1 })
        AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable {}
        }.subscribe(subscriber)
        handle?.send(1)
        #expect(received == [1, 2])
        #expect(completions == 1)
    }

    @Test func theDemandReturnedForAValueLetsTheNextOneThrough() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        AnyPublisher<Int, Never>.create { subscriber in
            for value in 1...3 { subscriber.send(value) }
            return AnyCancellable {}
        }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func cancelCancelsWhatTheFactoryReturnedAndStopsDelivery() {
        let cancels = Log<Void>()
        var handle: Publishers.Create<Int, Never>.Subscriber?
        let subscriber = TestSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable { cancels.append(()) }
        }.subscribe(subscriber)
        handle?.send(1)
        subscriber.cancel()
        subscriber.cancel()
        handle?.send(2)
        #expect(subscriber.values == [1])
        #expect(cancels.items.count == 1)
    }

    @Test func theCancellableIsCancelledOnceTheCompletionIsDelivered() {
        let cancels = Log<Void>()
        let subscriber = TestSubscriber<Int, Never>()
        AnyPublisher<Int, Never>.create { subscriber in
            subscriber.send(completion: .finished)
            return AnyCancellable { cancels.append(()) }
        }.subscribe(subscriber)
        #expect(subscriber.completions == [.finished])
        #expect(cancels.items.count == 1)
    }

    @Test func aCancelDuringTheFactoryCancelsWhatItReturns() {
        let cancels = Log<Void>()
        var cancellable: AnyCancellable?
        let subscriber = TestSubscriber<Int, Never>()
        cancellable = AnyPublisher<Int, Never>.create { _ in
            subscriber.cancel()
            return AnyCancellable { cancels.append(()) }
        }.sink { _ in }
        AnyPublisher<Int, Never>.create { _ in
            subscriber.cancel()
            return AnyCancellable { cancels.append(()) }
        }.subscribe(subscriber)
        #expect(cancels.items.count == 1)
        _ = cancellable
    }

    @Test func aValueSentFromInsideTheDownstreamIsDeliveredAfterTheCurrentOne() {
        var handle: Publishers.Create<Int, Never>.Subscriber?
        var received: [Int] = []
        let cancellable = AnyPublisher<Int, Never>.create { subscriber in
            handle = subscriber
            return AnyCancellable {}
        }.sink { value in
            received.append(value)
            if value == 1 { handle?.send(2) }
            received.append(-value)
        }
        handle?.send(1)
        #expect(received == [1, -1, 2, -2])
        _ = cancellable
    }

    @Test func valuesFromSeveralThreadsAreAllDeliveredOneAtATime() async {
        let received = Locked(0)
        let inside = Locked(false)
        let overlaps = Locked(0)
        let handle = Locked<Publishers.Create<Int, Never>.Subscriber?>(nil)
        let cancellable = AnyPublisher<Int, Never>.create { subscriber in
            handle.withLock { $0 = subscriber }
            return AnyCancellable {}
        }.sink { _ in
            if inside.withLock({ was in
                defer { was = true }; return was
            }) {
                overlaps.withLock { $0 += 1 }
            }
            received.withLock { $0 += 1 }
            inside.withLock { $0 = false }
        }
        let sender = handle.withLock { $0 }!
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { for value in 0..<500 { sender.send(value) } } }
        }
        cancellable.cancel()
        #expect(received.withLock { $0 } == 2000)
        #expect(overlaps.withLock { $0 } == 0)
    }
}
