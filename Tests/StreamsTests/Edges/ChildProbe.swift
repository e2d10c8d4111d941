import Streams

/// A publisher a test drives by hand, for the operators that subscribe to publishers they are
/// given (`flatMap`, `switchToLatest`): it records what its subscription is asked, the demand
/// its subscriber returns for each value, and runs `onRequest` inside each request, so a test
/// can send from there re-entrantly.
final class ChildProbe: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = TestError

    final class ProbeSubscription: Subscription, @unchecked Sendable {
        weak var probe: ChildProbe?

        func request(_ demand: Subscribers.Demand) {
            guard let probe else { return }
            probe.requests.append(demand)
            probe.onRequest?(demand)
        }

        func cancel() {
            guard let probe else { return }
            probe.cancels += 1
            probe.log?.append("cancel \(probe.name)")
            probe.onCancel?()
        }
    }

    let name: String
    let log: Log<String>?
    private(set) var subscriber: AnySubscriber<Int, TestError>?
    /// The subscriber as the operator passed it, not type-erased: what it conforms to.
    private(set) var link: Any?
    private(set) var subscription = ProbeSubscription()
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancels = 0
    /// The demand the subscriber returned for each value sent.
    private(set) var returned: [Subscribers.Demand] = []
    /// When true, a new subscriber gets no subscription until ``sendSubscription()``.
    var holdsSubscription = false
    var onRequest: ((Subscribers.Demand) -> Void)?
    var onCancel: (() -> Void)?

    init(_ name: String = "child", log: Log<String>? = nil) {
        self.name = name
        self.log = log
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        log?.append("subscribe \(name)")
        self.subscriber = AnySubscriber(subscriber)
        link = subscriber
        subscription.probe = self
        if !holdsSubscription { subscriber.receive(subscription: subscription) }
    }

    func sendSubscription() {
        subscriber?.receive(subscription: subscription)
    }

    @discardableResult
    func send(_ value: Int) -> Subscribers.Demand {
        let demand = subscriber?.receive(value) ?? .none
        returned.append(demand)
        return demand
    }

    func finish() {
        subscriber?.receive(completion: .finished)
    }

    func fail(_ error: TestError = .oops) {
        subscriber?.receive(completion: .failure(error))
    }
}
