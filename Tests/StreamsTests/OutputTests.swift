import Streams
import StreamsTesting
import Testing

@Suite("prefix, output(at:), output(in:), dropFirst")
struct OutputTests {
    @Test func prefixTakesTheFirstValuesThenFinishesAndCancels() {
        let cancels = Log<Void>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.handleEvents(receiveCancel: { cancels.append(()) }).prefix(2).subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        #expect(cancels.items.count == 1)
    }

    @Test func prefixReturnsPublishersOutput() {
        let output: Publishers.Output<PassthroughSubject<Int, Never>> = PassthroughSubject<Int, Never>().prefix(3)
        #expect(output.range == 0..<3)
    }

    @Test func outputAtAndIn() {
        let at = TestSubscriber<String, Never>()
        ["a", "b", "c"].publisher.eraseToAnyPublisher().output(at: 2).subscribe(at)
        #expect(at.values == ["c"])
        #expect(at.completion == .finished)
        let within = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (0..<10).publisher.eraseToAnyPublisher().output(in: 3..<5).subscribe(within)
        #expect(within.values == [3])
        within.request(.max(1))
        #expect(within.values == [3, 4])
        #expect(within.completion == .finished)
    }

    @Test func prefixOfAShorterUpstreamFinishesWithIt() {
        let subscriber = TestSubscriber<Int, Never>()
        [1].publisher.prefix(5).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completions == [.finished])
    }

    @Test func dropFirstSkipsValues() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3, 4].publisher.dropFirst(2).subscribe(subscriber)
        #expect(subscriber.values == [3])
        subscriber.request(.max(1))
        #expect(subscriber.values == [3, 4])
        #expect(subscriber.completion == .finished)
        let byDefault = TestSubscriber<Int, Never>()
        [1, 2].publisher.dropFirst().subscribe(byDefault)
        #expect(byDefault.values == [2])
    }

    @Test func negativeCountsTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = Just(1).dropFirst(-1)
        }
        await #expect(processExitsWith: .failure) {
            _ = Just(1).prefix(-1)
        }
    }
}
