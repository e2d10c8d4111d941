import Streams
import StreamsTesting
import Testing

@Suite("map, map(keyPath), replaceNil")
struct MapTests {
    struct User { let name: String; let age: Int; let email: String }

    @Test func transformsValuesAndPassesCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let mapped = TestSubscriber<String, TestError>()
        subject.map { "#\($0)" }.subscribe(mapped)
        subject.send(1)
        subject.send(completion: .failure(.oops))
        #expect(mapped.values == ["#1"])
        #expect(mapped.completion == .failure(.oops))
    }

    @Test func passesDemandStraightThrough() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.map { $0 * 10 }.subscribe(subscriber)
        #expect(subscriber.values == [10, 20])
        subscriber.request(.max(1))
        #expect(subscriber.values == [10, 20, 30])
    }

    @Test func theSubscriptionIsTheUpstreams() {
        // Combine's map has no subscription of its own: the upstream's goes downstream.
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).map { $0 }.subscribe(subscriber)
        #expect(subscriber.events.first == .subscription("Just"))
    }

    @Test func fusedMapsComposeInOrder() {
        let subscriber = TestSubscriber<Int, Never>()
        let fused: Publishers.Map<PassthroughSubject<Int, Never>, Int> =
            PassthroughSubject<Int, Never>().map { $0 + 1 }.map { $0 * 2 }
        let subject = PassthroughSubject<Int, Never>()
        subject.map { $0 + 1 }.map { $0 * 2 }.subscribe(subscriber)
        subject.send(3)
        #expect(subscriber.values == [8])
        _ = fused
    }

    @Test func keyPaths() {
        let users = [User(name: "ann", age: 30, email: "a@x")]
        let one = TestSubscriber<String, Never>()
        users.publisher.map(\.name).subscribe(one)
        #expect(one.values == ["ann"])
        var pairs: [(String, Int)] = []
        let two = users.publisher.map(\.name, \.age).sink { pairs.append($0) }
        #expect(pairs.map(\.0) == ["ann"] && pairs.map(\.1) == [30])
        var triples: [(String, Int, String)] = []
        let three = users.publisher.map(\.name, \.age, \.email).sink { triples.append($0) }
        #expect(triples.count == 1 && triples[0].2 == "a@x")
        _ = (two, three)
    }

    @Test func replaceNilIsAMap() {
        let subscriber = TestSubscriber<Int, Never>()
        let replaced: Publishers.Map<PassthroughSubject<Int?, Never>, Int> =
            PassthroughSubject<Int?, Never>().replaceNil(with: 0)
        [1, nil, 3].publisher.eraseToAnyPublisher().replaceNil(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1, 0, 3])
        _ = replaced
    }

    @Test func releasesTheClosureWhenCancelled() {
        weak var weakToken: Tracked?
        let subject = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let token = Tracked()
            weakToken = token
            cancellable = subject.map { value -> Int in
                _ = token; return value
            }.sink { _ in }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }
}
