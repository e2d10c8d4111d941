import Streams

/// The subscription ``ManualUpstream`` hands out: it records what it is asked and, like a real
/// publisher, lets go of its subscriber when cancelled.
final class ManualSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancels = 0
    var onCancel: (() -> Void)?

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
    }

    func cancel() {
        cancels += 1
        onCancel?()
    }

    var description: String { "ManualSubscription" }
}

/// What the contract suite drives, whatever the upstream's output type.
protocol ContractSource: AnyObject {
    /// The subscriber the upstream received last, while the upstream holds it.
    var subscriber: Any? { get }
    /// Sends the value made from `index`; `.none` once the subscriber is released.
    @discardableResult func send(_ index: Int) -> Subscribers.Demand
    func finish()
    func fail()
    /// Sends one more subscription to the subscriber, as a misbehaving upstream would.
    func sendSecondSubscription() -> ManualSubscription
    /// When true the upstream keeps sending to its subscriber after a cancel (misbehaving).
    var ignoresCancel: Bool { get set }
}

/// A publisher that a test drives by hand, one subscriber at a time. Values are made from an
/// index, so one upstream serves operators over any output type. It releases its subscriber
/// once cancelled or completed, as a well-behaved publisher does, unless told to ignore cancels.
final class ManualUpstream<Output, Failure: Error>: Publisher, ContractSource, @unchecked Sendable {
    private let make: (Int) -> Output
    /// What `fail()` sends; nil: `fail()` finishes instead.
    private let failure: Failure?
    private var value: ((Output) -> Subscribers.Demand)?
    private var completion: ((Subscribers.Completion<Failure>) -> Void)?
    private var subscribe: ((any Subscription) -> Void)?
    private(set) var subscriber: Any?
    private(set) var subscriptions: [ManualSubscription] = []
    var ignoresCancel = false
    /// When true, a new subscriber gets no subscription until ``sendSubscription()``.
    var holdsSubscription = false

    init(failure: Failure?, _ make: @escaping (Int) -> Output) {
        self.failure = failure
        self.make = make
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        value = { subscriber.receive($0) }
        completion = { subscriber.receive(completion: $0) }
        subscribe = { subscriber.receive(subscription: $0) }
        let subscription = ManualSubscription()
        subscription.onCancel = { [weak self] in
            guard let self, !self.ignoresCancel else { return }
            self.release()
        }
        subscriptions.append(subscription)
        if !holdsSubscription {
            subscriber.receive(subscription: subscription)
        }
    }

    /// Hands the held subscription to the subscriber (see ``holdsSubscription``).
    @discardableResult
    func sendSubscription() -> ManualSubscription? {
        guard let subscription = subscriptions.last else { return nil }
        subscribe?(subscription)
        return subscription
    }

    @discardableResult
    func send(_ index: Int) -> Subscribers.Demand {
        value?(make(index)) ?? .none
    }

    func finish() {
        let completion = completion
        if !ignoresCancel { release() }
        completion?(.finished)
    }

    func fail() {
        let completion = completion
        if !ignoresCancel { release() }
        completion?(failure.map { .failure($0) } ?? .finished)
    }

    func sendSecondSubscription() -> ManualSubscription {
        let extra = ManualSubscription()
        subscribe?(extra)
        return extra
    }

    private func release() {
        value = nil
        completion = nil
        subscribe = nil
        subscriber = nil
    }
}
