import Streams
import StreamsExt
import StreamsTesting
import Testing

/// The contract checks of ``OperatorContractTests`` for `AnyPublisher.create`, its initializer
/// form and `Publishers.Create`. They have no upstream for the harness to drive: each check
/// sends through the subscriber handle the closure is given, which it keeps in a ``Handle``.
@Suite("Contract checks for AnyPublisher.create and Publishers.Create")
struct CreateContractTests {
    /// The handle the closure was given, and the number of times what it returned was cancelled.
    final class Handle: @unchecked Sendable {
        var subscriber: Publishers.Create<Int, TestError>.Subscriber?
        var cancels = 0
        /// Captured by the cancellable the closure returned, to see that it is let go.
        weak var tracked: Tracked?
    }

    struct Form: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (Handle) -> AnyPublisher<Int, TestError>
        var testDescription: String { name }
    }

    static func factory(_ handle: Handle) -> Publishers.Create<Int, TestError>.SubscriberHandler {
        { [weak handle] subscriber in
            handle?.subscriber = subscriber
            let tracked = Tracked()
            handle?.tracked = tracked
            return AnyCancellable {
                _ = tracked
                handle?.cancels += 1
            }
        }
    }

    static let forms = [
        Form(name: "AnyPublisher.create") { AnyPublisher.create(factory($0)) },
        Form(name: "AnyPublisher.init") { AnyPublisher(factory($0)) },
        Form(name: "Publishers.Create") { Publishers.Create(factory: factory($0)).eraseToAnyPublisher() },
    ]

    @Test(arguments: forms)
    func reflection(_ form: Form) {
        let handle = Handle()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        form.make(handle).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        let subscription = subscriber.subscription
        let description = "Create.Subscription<Int, TestError>"
        #expect(subscription.map { String(describing: $0) } == description)
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == description)
        #expect(subscription.map { Mirror(reflecting: $0).children.count } == 0)
        subscriber.cancel()
    }

    @Test(arguments: forms)
    func nothingArrivesAfterCancel(_ form: Form) {
        let handle = Handle()
        let subscriber = TestSubscriber<Int, TestError>()
        form.make(handle).subscribe(subscriber)
        handle.subscriber?.send(1)
        subscriber.cancel()
        let seen = subscriber.events.count
        handle.subscriber?.send(2)
        handle.subscriber?.send(completion: .finished)
        #expect(subscriber.events.count == seen)
        #expect(handle.cancels == 1)
    }

    /// The closure keeps its handle (and so the subscription) on purpose: the downstream and
    /// the cancellable it returned must be let go all the same.
    @Test(arguments: forms)
    func releasedAfterCompletion(_ form: Form) {
        weak var downstream: TestSubscriber<Int, TestError>?
        let handle = Handle()
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            form.make(handle).subscribe(subscriber)
            handle.subscriber?.send(1)
            handle.subscriber?.send(completion: .finished)
            #expect(subscriber.values == [1])
            #expect(subscriber.completions == [.finished])
            downstream = subscriber
        }
        #expect(handle.subscriber != nil)
        #expect(downstream == nil)
        #expect(handle.tracked == nil)
        #expect(handle.cancels == 1)
    }

    @Test(arguments: forms)
    func releasedAfterCancel(_ form: Form) {
        weak var downstream: TestSubscriber<Int, TestError>?
        let handle = Handle()
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            form.make(handle).subscribe(subscriber)
            handle.subscriber?.send(1)
            subscriber.cancel()
            downstream = subscriber
        }
        #expect(handle.subscriber != nil)
        #expect(downstream == nil)
        #expect(handle.tracked == nil)
        #expect(handle.cancels == 1)
    }

    /// A subscriber that asks for one value at a time with `request` from inside `receive(_:)`
    /// and cancels there on its second value: nothing arrives after the cancel.
    @Test(arguments: forms)
    func reentrantRequestAndCancel(_ form: Form) {
        let handle = Handle()
        let subscriber = CancelOnSecondValueSubscriber<Int, TestError>()
        form.make(handle).subscribe(subscriber)
        for value in 1...6 {
            handle.subscriber?.send(value)
        }
        handle.subscriber?.send(completion: .finished)
        #expect(subscriber.received == 2)
        #expect(subscriber.valuesAfterCancel == 0)
        #expect(handle.cancels == 1)
    }
}
