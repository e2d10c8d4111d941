import Foundation
import Streams
import StreamsTesting
import Testing

/// Descriptions and mirrors of the subscriptions that sources hand out and of the subscribers:
/// each reports Combine's description (also as its playground description), Combine's mirror,
/// and is never CustomDebugStringConvertible.
@Suite struct SubscriptionReflectionTests {
    /// Subscribes a subscriber that requests nothing and returns the subscription it got.
    private func subscription<P: Publisher>(of publisher: P) throws -> any Subscription {
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: nil)
        publisher.subscribe(subscriber)
        return try #require(subscriber.subscription)
    }

    private func expect(
        _ object: Any, _ description: String, children: [String?], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(String(describing: object) == description, sourceLocation: sourceLocation)
        #expect(
            (object as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == description,
            sourceLocation: sourceLocation)
        #expect(!(object is any CustomDebugStringConvertible), sourceLocation: sourceLocation)
        #expect(Mirror(reflecting: object).children.map(\.label) == children, sourceLocation: sourceLocation)
    }

    @Test func justOptionalAndResultShowTheirValue() throws {
        let just = try subscription(of: Just(7))
        expect(just, "Just", children: [nil])
        #expect(Mirror(reflecting: just).children.first?.value as? Int == 7)
        expect(try subscription(of: Optional(7).publisher), "Optional", children: [nil])
        expect(try subscription(of: Result<Int, TestError>.success(7).publisher), "Once", children: [nil])
    }

    @Test func emptySubscription() {
        expect(Subscriptions.empty, "Empty", children: [])
    }

    @Test func sequenceDescribesItsElementsUntilExhausted() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: nil)
        (1...3).publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        expect(subscription, "1...3", children: ["sequence"])
        subscription.request(.unlimited)
        expect(subscription, "Sequence", children: ["sequence"])
    }

    @Test func futureSubscription() throws {
        let future = Future<Int, Never> { _ in }
        expect(try subscription(of: future), "Future", children: ["parent", "downstream", "hasAnyDemand", "subject"])
    }

    @Test func subjectSubscriptions() throws {
        let demand = ["parent", "downstream", "demand", "subject"]
        expect(try subscription(of: PassthroughSubject<Int, Never>()), "PassthroughSubject", children: demand)
        expect(try subscription(of: CurrentValueSubject<Int, Never>(0)), "CurrentValueSubject", children: demand)
        let published = try subscription(of: Published(wrappedValue: 0).projectedValue)
        expect(published, "PublishedSubject", children: demand)
        let shown = Mirror(reflecting: published).children.map { String(describing: $0.value) }
        #expect(shown[0].contains("PublishedSubject"))
        #expect(shown[2] == "max(0)")
        #expect(shown[3].contains("PublishedSubject"))
    }

    @Test func sinkAndAssign() {
        final class Target: @unchecked Sendable { var value = 0 }
        expect(Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }), "Sink", children: [])
        let target = Target()
        expect(Subscribers.Assign(object: target, keyPath: \.value), "Assign Target.", children: ["object", "keyPath", "status"])
    }

    @Test func anyPublisherShowsItsDescriptionInPlaygrounds() {
        let erased = Just(1).eraseToAnyPublisher()
        #expect(erased.playgroundDescription as? String == erased.description)
    }
}
