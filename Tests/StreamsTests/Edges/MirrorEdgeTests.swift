import Streams
import StreamsTesting
import Testing

/// What the mirrors of Combine's inner objects show of the state they keep: the value itself, of
/// its own type (never wrapped in one more `Optional`), for as long as Combine keeps it.
@Suite("mirrors at the edges")
struct MirrorEdgeTests {
    /// One child of a mirror, as `String(describing:)` and `dump` show it.
    struct Child {
        let label: String?
        let value: Any
        var text: String { String(describing: value) }
        var dumped: String {
            var output = ""
            dump(value, to: &output)
            return output
        }
        /// Whether the value's dynamic type is exactly `T` (an `Int` is not an `Int?`).
        func hasType<T>(_: T.Type) -> Bool { type(of: value) == T.self }
    }

    func children(of object: Any) -> [Child] {
        Mirror(reflecting: object).children.map { Child(label: $0.label, value: $0.value) }
    }

    func child(_ label: String, of object: Any, sourceLocation: SourceLocation = #_sourceLocation) throws -> Child {
        try #require(children(of: object).first { $0.label == label }, sourceLocation: sourceLocation)
    }

    /// Subscribes a subscriber that asks for nothing and returns it with its subscription.
    func subscribe<P: Publisher>(_ publisher: P) throws -> (TestSubscriber<P.Output, P.Failure>, any Subscription) {
        let subscriber = TestSubscriber<P.Output, P.Failure>(initialDemand: nil)
        publisher.subscribe(subscriber)
        return (subscriber, try #require(subscriber.subscription))
    }

    /// Checks that `subscription` shows `42` as its one unlabeled child, of type `Int`.
    func expectShowsTheValue(_ subscription: any Subscription, sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = children(of: subscription)
        #expect(shown.map(\.label) == [nil], sourceLocation: sourceLocation)
        guard let value = shown.first else { return }
        #expect(value.text == "42", sourceLocation: sourceLocation)
        #expect(value.dumped == "- 42\n", sourceLocation: sourceLocation)
        #expect(value.hasType(Int.self), sourceLocation: sourceLocation)
    }

    // MARK: Just, Optional.Publisher, Result.Publisher

    func expectKeepsTheValue<P: Publisher>(
        _ publisher: P, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws where P.Output == Int {
        let (subscriber, subscription) = try subscribe(publisher)
        #expect(String(describing: subscription) == name, sourceLocation: sourceLocation)
        expectShowsTheValue(subscription, sourceLocation: sourceLocation)
        subscriber.request(.max(1))
        #expect(subscriber.values == [42], sourceLocation: sourceLocation)
        expectShowsTheValue(subscription, sourceLocation: sourceLocation)

        let (cancelling, cancelled) = try subscribe(publisher)
        cancelling.cancel()
        expectShowsTheValue(cancelled, sourceLocation: sourceLocation)
    }

    @Test func justShowsItsValueUnwrappedBeforeAndAfterDeliveryOrCancel() throws {
        try expectKeepsTheValue(Just(42), named: "Just")
    }

    @Test func optionalPublisherShowsItsValueUnwrappedBeforeAndAfterDeliveryOrCancel() throws {
        try expectKeepsTheValue(Optional(42).publisher, named: "Optional")
    }

    @Test func resultPublisherShowsItsValueUnwrappedBeforeAndAfterDeliveryOrCancel() throws {
        try expectKeepsTheValue(Result<Int, TestError>.success(42).publisher, named: "Once")
    }

    // MARK: removeDuplicates, tryRemoveDuplicates, tryScan

    func expectLastIsOneOptional<P: Publisher>(
        _ makePipeline: (PassthroughSubject<Int, TestError>) -> P, named name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws where P.Output == Int {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, P.Failure>()
        makePipeline(subject).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription, sourceLocation: sourceLocation)
        #expect(String(describing: subscription) == name, sourceLocation: sourceLocation)
        #expect(children(of: subscription).map(\.label) == ["downstream", "last"], sourceLocation: sourceLocation)
        let before = try child("last", of: subscription, sourceLocation: sourceLocation)
        #expect(before.text == "nil", sourceLocation: sourceLocation)
        #expect(before.hasType(Int?.self), sourceLocation: sourceLocation)
        for value in [1, 1] { subject.send(value) }
        let after = try child("last", of: subscription, sourceLocation: sourceLocation)
        #expect(after.text == "Optional(1)", sourceLocation: sourceLocation)
        #expect(after.hasType(Int?.self), sourceLocation: sourceLocation)
        subject.send(2)
        #expect(
            try child("last", of: subscription, sourceLocation: sourceLocation).text == "Optional(2)",
            sourceLocation: sourceLocation)
        #expect(subscriber.values == [1, 2], sourceLocation: sourceLocation)
    }

    @Test func removeDuplicatesShowsTheLastValueAsOneOptional() throws {
        try expectLastIsOneOptional({ $0.removeDuplicates() }, named: "RemoveDuplicates")
        try expectLastIsOneOptional({ $0.removeDuplicates(by: ==) }, named: "RemoveDuplicates")
    }

    @Test func tryRemoveDuplicatesShowsTheLastValueAsOneOptional() throws {
        try expectLastIsOneOptional({ $0.tryRemoveDuplicates(by: ==) }, named: "TryRemoveDuplicates")
    }

    @Test func tryScanShowsTheAccumulatedValueItself() throws {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TestSubscriber<Int, any Error>()
        subject.tryScan(0) { $0 + $1 }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "TryScan")
        #expect(children(of: subscription).map(\.label) == ["downstream", "status", "result"])
        let initial = try child("result", of: subscription)
        #expect(initial.text == "0")
        #expect(initial.dumped == "- 0\n")
        #expect(initial.hasType(Int.self))
        subject.send(2)
        subject.send(3)
        let accumulated = try child("result", of: subscription)
        #expect(accumulated.text == "5")
        #expect(accumulated.hasType(Int.self))
    }

    // MARK: Future

    /// A subscriber that asks for `demand` when subscribed and runs `onValue` for each value.
    final class Inspecting: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = TestError

        let demand: Subscribers.Demand?
        var subscription: (any Subscription)?
        var onValue: (() -> Void)?
        var completions = 0

        init(demand: Subscribers.Demand?) {
            self.demand = demand
        }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            if let demand { subscription.request(demand) }
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            onValue?()
            return .none
        }

        func receive(completion: Subscribers.Completion<TestError>) {
            completions += 1
        }
    }

    /// The future a mirror's `parent` and `subject` show, or `nil` for each.
    func parents(in subscription: any Subscription) throws -> [AnyObject?] {
        try ["parent", "subject"].map { label in
            try child(label, of: subscription).value as? Future<Int, TestError>
        }
    }

    func expectTerminated(
        _ subscription: any Subscription, parent: Future<Int, TestError>?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            children(of: subscription).map(\.label) == ["parent", "downstream", "hasAnyDemand", "subject"],
            sourceLocation: sourceLocation)
        #expect(try child("downstream", of: subscription).text == "nil", sourceLocation: sourceLocation)
        #expect(try child("hasAnyDemand", of: subscription).value as? Bool == false, sourceLocation: sourceLocation)
        let shown = try parents(in: subscription)
        #expect(shown.map { $0 === parent } == [true, true], sourceLocation: sourceLocation)
    }

    @Test func futureShowsItsParentWhileAResultItReceivesIsDeliveredAndLetsItGoAfter() throws {
        var promise: Future<Int, TestError>.Promise?
        let future = Future<Int, TestError> { promise = $0 }
        let subscriber = Inspecting(demand: .unlimited)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        var parentsWhileDelivering: [AnyObject?] = []
        subscriber.onValue = { parentsWhileDelivering = (try? self.parents(in: subscription)) ?? [] }
        let fulfil = try #require(promise)
        fulfil(.success(1))
        #expect(parentsWhileDelivering.map { $0 === future } == [true, true])
        #expect(subscriber.completions == 1)
        try expectTerminated(subscription, parent: nil)
    }

    @Test func futureKeepsShowingItsParentWhenARequestDeliveredTheResult() throws {
        let future = Future<Int, TestError> { $0(.success(1)) }
        let subscriber = Inspecting(demand: nil)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        var parentsWhileDelivering: [AnyObject?] = []
        subscriber.onValue = { parentsWhileDelivering = (try? self.parents(in: subscription)) ?? [] }
        subscription.request(.max(1))
        #expect(parentsWhileDelivering.map { $0 === future } == [true, true])
        #expect(subscriber.completions == 1)
        try expectTerminated(subscription, parent: future)
        subscription.cancel()
        try expectTerminated(subscription, parent: future)
    }

    @Test func futureKeepsShowingItsParentWhenARequestMadeWhileSubscribingSentTheResult() throws {
        let future = Future<Int, TestError> { $0(.success(1)) }
        let subscriber = Inspecting(demand: .unlimited)
        var parentsWhileDelivering: [AnyObject?] = []
        subscriber.onValue = {
            guard let subscription = subscriber.subscription else { return }
            parentsWhileDelivering = (try? self.parents(in: subscription)) ?? []
        }
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(parentsWhileDelivering.map { $0 === future } == [true, true])
        #expect(subscriber.completions == 1)
        try expectTerminated(subscription, parent: future)
    }

    @Test func futureLetsItsParentGoWhenItsFailureReachesASubscriberWithoutDemand() throws {
        let future = Future<Int, TestError> { $0(.failure(.oops)) }
        let subscriber = Inspecting(demand: nil)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(subscriber.completions == 1)
        try expectTerminated(subscription, parent: nil)
    }

    @Test func futureLetsItsParentGoWhenAFailureIsDelivered() throws {
        var promise: Future<Int, TestError>.Promise?
        let future = Future<Int, TestError> { promise = $0 }
        let subscriber = Inspecting(demand: nil)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        let fulfil = try #require(promise)
        fulfil(.failure(.oops))
        #expect(subscriber.completions == 1)
        try expectTerminated(subscription, parent: nil)
    }

    @Test func futureLetsItsParentGoWhenCancelled() throws {
        let future = Future<Int, TestError> { _ in }
        let subscriber = Inspecting(demand: nil)
        future.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(try parents(in: subscription).map { $0 === future } == [true, true])
        subscription.cancel()
        try expectTerminated(subscription, parent: nil)
    }
}
