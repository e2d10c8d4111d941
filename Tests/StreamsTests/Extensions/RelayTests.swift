import Streams
import StreamsExt
import StreamsTesting
import Testing

@Suite("Relay, PassthroughRelay, CurrentValueRelay")
struct RelayTests {
    @Test func passthroughRelaySendsAcceptedValues() {
        let relay = PassthroughRelay<Int>()
        let subscriber = TestSubscriber<Int, Never>()
        relay.accept(0)
        relay.subscribe(subscriber)
        relay.accept(1)
        relay.accept(2)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == nil)
    }

    @Test func currentValueRelayReplaysItsValue() {
        let relay = CurrentValueRelay("a")
        let subscriber = TestSubscriber<String, Never>()
        relay.accept("b")
        relay.subscribe(subscriber)
        relay.accept("c")
        #expect(subscriber.values == ["b", "c"])
        #expect(relay.value == "c")
    }

    @Test func acceptWithoutArgumentsForVoid() {
        let relay = PassthroughRelay<Void>()
        var count = 0
        let cancellable = relay.sink { count += 1 }
        relay.accept()
        relay.accept()
        cancellable.cancel()
        #expect(count == 2)
    }

    @Test func relaysHonourDemand() {
        let relay = CurrentValueRelay(0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        relay.subscribe(subscriber)
        relay.accept(1)
        #expect(subscriber.values == [0])
        // As a CurrentValueSubject does: a request is met with the value held now.
        subscriber.request(.max(1))
        relay.accept(2)
        #expect(subscriber.values == [0, 1])
    }

    @Test func anAttachedPublishersCompletionDoesNotEndTheRelay() {
        let relay = PassthroughRelay<Int>()
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        let attachment = [1, 2].publisher.subscribe(relay)
        relay.accept(3)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        attachment.cancel()
    }

    @Test func relaySubscribeAttachesAPublisherUntilCancelled() {
        let relay = CurrentValueRelay(0)
        let source = PassthroughSubject<Int, Never>()
        let attachment = relay.subscribe(source)
        source.send(1)
        #expect(relay.value == 1)
        attachment.cancel()
        source.send(2)
        #expect(relay.value == 1)
        source.send(completion: .finished)
        relay.accept(3)
        #expect(relay.value == 3)
    }

    @Test func oneRelaySubscribesAnother() {
        // CombineExt's case: the passthrough relay asks the current-value relay for values only
        // once it has a subscriber that asked, so that subscriber gets the value held first.
        let input = CurrentValueRelay("initial")
        let output = PassthroughRelay<String>()
        let link = input.subscribe(output)
        let subscriber = TestSubscriber<String, Never>()
        output.subscribe(subscriber)
        input.accept("1")
        input.accept("2")
        #expect(subscriber.values == ["initial", "1", "2"])
        link.cancel()
        input.accept("3")
        #expect(subscriber.values == ["initial", "1", "2"])
        #expect(subscriber.completion == nil)
    }

    @Test func twoCurrentValueRelaysLinkedSendTheValueHeldOnce() {
        let input = CurrentValueRelay("initial")
        let output = CurrentValueRelay("other")
        let link = input.subscribe(output)
        let subscriber = TestSubscriber<String, Never>()
        output.subscribe(subscriber)
        input.accept("1")
        #expect(subscriber.values == ["initial", "1"])
        link.cancel()
    }

    @Test func aPassthroughRelayAsksAnAttachedPublisherOnceOneOfItsSubscribersAsks() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let relay = PassthroughRelay<Int>()
        let attachment = relay.subscribe(upstream)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions[0].requests.isEmpty)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        relay.subscribe(subscriber)
        #expect(upstream.subscriptions[0].requests.isEmpty)
        subscriber.request(.max(1))
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        _ = upstream.send(1)
        #expect(subscriber.values == [1])
        attachment.cancel()
        #expect(upstream.subscriptions[0].cancels == 1)
    }

    @Test func aSequenceAttachedBeforeAnySubscriberWaitsForOne() {
        let relay = PassthroughRelay<Int>()
        let attachment = [1, 2, 3].publisher.subscribe(relay)
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        relay.accept(4)
        #expect(subscriber.values == [1, 2, 3, 4])
        attachment.cancel()
    }

    @Test func aCurrentValueRelayAsksAnAttachedPublisherAtOnce() {
        let upstream = ManualUpstream<Int, Never>(failure: nil) { $0 }
        let relay = CurrentValueRelay(0)
        let attachment = relay.subscribe(upstream)
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscriptions[0].requests == [.unlimited])
        _ = upstream.send(5)
        #expect(relay.value == 5)
        upstream.finish()
        relay.accept(6)
        #expect(relay.value == 6)
        attachment.cancel()
    }

    @Test func oneRelaySubscribesAnotherInGenericCode() {
        func link<Source: Relay, Destination: Relay>(_ source: Source, to destination: Destination) -> AnyCancellable
        where Source.Output == Destination.Output {
            source.subscribe(destination)
        }
        let input = PassthroughRelay<Int>()
        let output = CurrentValueRelay(0)
        let cancellable = link(input, to: output)
        input.accept(5)
        #expect(output.value == 5)
        cancellable.cancel()
    }

    @Test func aCurrentValueRelayHandsItsValueToTheRelayItSubscribes() {
        let input = CurrentValueRelay(7)
        let output = CurrentValueRelay(0)
        let link = input.subscribe(output)
        #expect(output.value == 7)
        link.cancel()
    }

    @Test func subscribersFinishWhenTheRelayGoesAway() {
        let passthrough = TestSubscriber<Int, Never>()
        let current = TestSubscriber<Int, Never>()
        do {
            let relay = PassthroughRelay<Int>()
            relay.subscribe(passthrough)
            relay.accept(1)
            let other = CurrentValueRelay(1)
            other.subscribe(current)
        }
        #expect(passthrough.values == [1])
        #expect(passthrough.completions == [.finished])
        #expect(current.values == [1])
        #expect(current.completions == [.finished])
    }

    @Test func aRelayDeclaredBeforeTheCancellablesOfItsPipelinesGoesAwayWithItsOwner() {
        // The owner declares the relays first, then the cancellables of pipelines from them
        // through `handleEvents`. The pipelines keep neither a relay nor its value alive, so
        // when the owner goes, the relays go first and finish their subscribers; the pipelines
        // are never cancelled.
        final class Owner {
            let current = CurrentValueRelay(Tracked())
            let passthrough = PassthroughRelay<Tracked>()
            var cancellables = Set<AnyCancellable>()

            init(completions: Log<String>, cancels: Log<String>) {
                current.handleEvents(receiveCancel: { cancels.append("current") })
                    .sink(receiveCompletion: { _ in completions.append("current") }, receiveValue: { _ in })
                    .store(in: &cancellables)
                passthrough.handleEvents(receiveCancel: { cancels.append("passthrough") })
                    .sink(receiveCompletion: { _ in completions.append("passthrough") }, receiveValue: { _ in })
                    .store(in: &cancellables)
            }
        }
        weak var value: Tracked?
        weak var current: CurrentValueRelay<Tracked>?
        weak var passthrough: PassthroughRelay<Tracked>?
        let completions = Log<String>()
        let cancels = Log<String>()
        do {
            let owner = Owner(completions: completions, cancels: cancels)
            value = owner.current.value
            current = owner.current
            passthrough = owner.passthrough
        }
        #expect(value == nil)
        #expect(current == nil)
        #expect(passthrough == nil)
        #expect(completions.items.sorted() == ["current", "passthrough"])
        #expect(cancels.items.isEmpty)
    }

    @Test func subscribersDoNotKeepTheRelayAlive() {
        weak var released: PassthroughRelay<Int>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let relay = PassthroughRelay<Int>()
            relay.subscribe(subscriber)
            released = relay
        }
        #expect(released == nil)
    }

    @Test func acceptFromSeveralThreads() async {
        let relay = PassthroughRelay<Int>()
        let count = Locked(0)
        let cancellable = relay.sink { _ in count.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for value in 0..<250 { relay.accept(value) } }
            }
        }
        cancellable.cancel()
        #expect(count.withLock { $0 } == 1000)
    }
}
