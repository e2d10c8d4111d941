import Foundation
import Streams
import Testing

/// Combine's rules at the edges of `Sink`, `Assign` and `Subscribers.Demand`'s coding.
@Suite("Sink, Assign and Demand edges")
struct SinkAssignDemandEdgeTests {
    @Test func sinkDeliversWithoutASubscriptionAndReleasesOnCompletion() {
        weak var weakToken: Tracked?
        let values = Log<Int>()
        let completions = Log<Subscribers.Completion<Never>>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let token = Tracked()
            weakToken = token
            sink = Subscribers.Sink(receiveCompletion: {
                _ = token; completions.append($0)
            }) { values.append($0) }
        }
        #expect(sink.receive(1) == .none)
        #expect(values.items == [1])
        #expect(weakToken != nil)
        sink.receive(completion: .finished)
        #expect(completions.items == [.finished])
        #expect(weakToken == nil)
    }

    @Test func sinkCancelBeforeASubscriptionKeepsTheClosuresAndTheNextSubscription() {
        weak var weakToken: Tracked?
        let values = Log<Int>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let token = Tracked()
            weakToken = token
            sink = Subscribers.Sink(receiveCompletion: { _ in _ = token }) { values.append($0) }
        }
        sink.cancel()
        #expect(weakToken != nil)
        let subscription = RecordingSubscription()
        sink.receive(subscription: subscription)
        #expect(subscription.requests == [.unlimited])
        #expect(subscription.cancels == 0)
        _ = sink.receive(2)
        #expect(values.items == [2])
        sink.cancel()
        #expect(subscription.cancels == 1)
        #expect(weakToken == nil)
    }

    @Test func sinkAfterACompletionIgnoresInputAndCancelsALaterSubscription() {
        let values = Log<Int>()
        let completions = Log<Subscribers.Completion<Never>>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { completions.append($0) }) { values.append($0) }
        sink.receive(completion: .finished)
        _ = sink.receive(1)
        sink.receive(completion: .finished)
        sink.receiveValue(2)
        sink.receiveCompletion(.finished)
        let subscription = RecordingSubscription()
        sink.receive(subscription: subscription)
        #expect(values.items.isEmpty)
        #expect(completions.items == [.finished])
        #expect(subscription.requests.isEmpty)
        #expect(subscription.cancels == 1)
    }

    @Test func assignCancelBeforeASubscriptionKeepsTheObject() {
        final class Box { var value = 0 }
        let box = Box()
        let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
        assign.cancel()
        #expect(assign.object === box)
        let subscription = RecordingSubscription()
        assign.receive(subscription: subscription)
        #expect(subscription.requests == [.unlimited])
        #expect(subscription.cancels == 0)
        _ = assign.receive(5)
        #expect(box.value == 5)
        assign.cancel()
        #expect(assign.object == nil)
        #expect(subscription.cancels == 1)
    }

    @Test func assignDescriptionAndMirror() {
        final class Box { var value = 0 }
        let box = Box()
        let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
        #expect(assign.description == "Assign Box.")
        let labels = Mirror(reflecting: assign).children.map(\.label)
        #expect(labels == ["object", "keyPath", "status"])
    }

    @Test func demandEncodesAsOneUnsignedInteger() throws {
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(Subscribers.Demand.max(7)), as: UTF8.self) == "7")
        #expect(
            String(decoding: try encoder.encode(Subscribers.Demand.unlimited), as: UTF8.self)
                == "9223372036854775808")
    }

    @Test func demandDecodesAnyCountAboveIntMaxAsUnlimited() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Subscribers.Demand.self, from: Data("9223372036854775807".utf8)) == .max(Int.max))
        #expect(try decoder.decode(Subscribers.Demand.self, from: Data("9223372036854775808".utf8)) == .unlimited)
        #expect(try decoder.decode(Subscribers.Demand.self, from: Data("9223372036854775809".utf8)) == .unlimited)
        #expect(try decoder.decode(Subscribers.Demand.self, from: Data("\(UInt.max)".utf8)) == .unlimited)
        #expect(throws: DecodingError.self) {
            try decoder.decode(Subscribers.Demand.self, from: Data("-1".utf8))
        }
    }

    /// QUIRK: Combine overflows `.max(Int.max) - (-1)` to `.none`; Streams saturates.
    @Test func demandMinusANegativeCountSaturatesAtUnlimited() {
        #expect(Subscribers.Demand.max(Int.max) - (-1) == .unlimited)
        #expect(Subscribers.Demand.max(Int.max) + 1 == .unlimited)
    }
}
