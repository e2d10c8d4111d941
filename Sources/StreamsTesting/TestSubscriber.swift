import Streams

/// A subscriber that records everything it receives, for tests.
///
/// It asks for `initialDemand` when subscribed and returns `demandPerValue` from every
/// `receive(_:)`; `onValue` runs before that, so a test can send, request or cancel re-entrantly.
/// Every member may be used from any thread.
///
/// ```swift
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// #expect(subscriber.values == [1])
/// subscriber.request(.max(2))
/// #expect(subscriber.events == [.subscription("[1, 2, 3]"), .value(1), .value(2), .value(3), .completion(.finished)])
/// ```
// Unchecked: what it records is behind a lock; the values it records need not be Sendable.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    /// One thing the subscriber received.
    public enum Event {
        /// A subscription, recorded by its description (`"Map"`, `"Just"`, ...).
        case subscription(String)
        /// A value.
        case value(Input)
        /// A completion.
        case completion(Subscribers.Completion<Failure>)
    }

    /// What the subscriber has received, reached only under its lock.
    private struct Recording {
        var events: [Event] = []
        var subscriptions: [any Subscription] = []
    }

    private let state = LockedState(Recording())
    private let initialDemand: Subscribers.Demand?
    private let demandPerValue: Subscribers.Demand
    private let valueHook: ((Input) -> Void)?

    /// Makes a recording subscriber.
    ///
    /// - Parameters:
    ///   - initialDemand: requested on subscription; `nil` requests nothing.
    ///   - demandPerValue: returned from every `receive(_:)`.
    ///   - onValue: called with each value before it is recorded and the demand returned.
    ///
    /// ```swift
    /// let oneAtATime = TestSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    /// ```
    public init(
        initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none,
        onValue: ((Input) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.demandPerValue = demandPerValue
        self.valueHook = onValue
    }

    /// Everything received, in order.
    public var events: [Event] { state.withLock { $0.events } }

    /// The values received, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completions received (more than one means the publisher broke the contract).
    public var completions: [Subscribers.Completion<Failure>] {
        events.compactMap { if case .completion(let completion) = $0 { completion } else { nil } }
    }

    /// The first completion received, if any.
    public var completion: Subscribers.Completion<Failure>? { completions.first }

    /// How many subscriptions were received (more than one means the publisher broke the contract).
    public var subscriptionCount: Int { state.withLock { $0.subscriptions.count } }

    /// The first subscription received.
    public var subscription: (any Subscription)? { state.withLock { $0.subscriptions.first } }

    /// Asks the first subscription for `demand` more values.
    ///
    /// ```swift
    /// subscriber.request(.max(1))
    /// ```
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the first subscription.
    public func cancel() {
        subscription?.cancel()
    }

    /// Records the subscription and asks for the initial demand.
    public func receive(subscription: any Subscription) {
        let name = String(describing: subscription)
        state.withLock {
            $0.events.append(.subscription(name))
            $0.subscriptions.append(subscription)
        }
        if let initialDemand {
            subscription.request(initialDemand)
        }
    }

    /// Runs `onValue`, records the value and returns `demandPerValue`.
    public func receive(_ input: Input) -> Subscribers.Demand {
        valueHook?(input)
        state.withLock { $0.events.append(.value(input)) }
        return demandPerValue
    }

    /// Records the completion.
    public func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.events.append(.completion(completion)) }
    }

    /// `"TestSubscriber"`.
    public var description: String { "TestSubscriber" }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension TestSubscriber.Event: CustomStringConvertible {
    /// A short form such as `value(1)` or `completion(finished)`.
    public var description: String {
        switch self {
        case .subscription(let name): "subscription(\(name))"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "completion(finished)"
        case .completion(.failure(let error)): "completion(failure(\(error)))"
        }
    }
}
