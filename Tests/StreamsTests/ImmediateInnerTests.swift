import Streams
import StreamsTesting
import Testing

/// `flatMap` and `catch` do not subscribe to an inner publisher whose outcome is known
/// (`Just`, `Empty`, `Fail`, `Optional.Publisher`, `Result.Publisher`, and those behind
/// `setFailureType` or `eraseToAnyPublisher()`): they pass its events on themselves. Each check
/// runs one script twice, once with the inner publisher as it is and once behind
/// ``Subscribed`` (which hides the outcome, so it is subscribed to), and expects the same log of
/// everything observable: the downstream's events, the upstream's demand and cancel, and the
/// order of all of them.
@Suite("flatMap and catch of inner publishers that complete at once")
struct ImmediateInnerTests {
    /// `base`, with its outcome hidden: subscribing is the only way to learn it.
    struct Subscribed<Base: Publisher>: Publisher {
        typealias Output = Base.Output
        typealias Failure = Base.Failure
        let base: Base

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            base.receive(subscriber: subscriber)
        }
    }

    /// A subscriber that logs what it gets and reacts as the script says.
    final class Scripted<Input, Failure: Error>: Subscriber, @unchecked Sendable {
        let log: Log<String>
        let initialDemand: Subscribers.Demand
        /// What it returns for each value, and what it does before returning.
        let onValue: (Input, Scripted) -> Subscribers.Demand
        var subscription: (any Subscription)?

        init(
            log: Log<String>, initialDemand: Subscribers.Demand,
            onValue: @escaping (Input, Scripted) -> Subscribers.Demand = { _, _ in .none }
        ) {
            self.log = log
            self.initialDemand = initialDemand
            self.onValue = onValue
        }

        /// Asks for `demand`, logging it.
        func request(_ demand: Subscribers.Demand) {
            log.append("request \(demand)")
            subscription?.request(demand)
        }

        /// Cancels, logging it.
        func cancel() {
            log.append("cancel")
            subscription?.cancel()
        }

        /// Sends `value` to `subject`, logging it.
        func send<SubjectFailure: Error>(_ value: Int, to subject: PassthroughSubject<Int, SubjectFailure>) {
            log.append("send \(value)")
            subject.send(value)
        }

        /// Sends `completion` to `subject`, logging it.
        func send<SubjectFailure: Error>(
            completion: Subscribers.Completion<SubjectFailure>, to subject: PassthroughSubject<Int, SubjectFailure>
        ) {
            log.append("send \(completion)")
            subject.send(completion: completion)
        }

        func receive(subscription: any Subscription) {
            log.append("subscription \(subscription)")
            self.subscription = subscription
            if initialDemand > 0 { subscription.request(initialDemand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            log.append("value \(input)")
            let demand = onValue(input, self)
            log.append("returned \(demand)")
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            log.append("completion \(completion)")
        }
    }

    /// The upstream of a script: a subject whose demand and cancel are logged.
    static func upstream<Failure: Error>(
        _ subject: PassthroughSubject<Int, Failure>, log: Log<String>
    ) -> Publishers.HandleEvents<PassthroughSubject<Int, Failure>> {
        subject.handleEvents(
            receiveCancel: { log.append("upstream cancel") }, receiveRequest: { log.append("upstream request \($0)") })
    }

    /// A `flatMap` script: what it does to the subject and the subscriber, given both.
    typealias FlatMapScript<Failure: Error> = (PassthroughSubject<Int, Failure>, Scripted<Int, Failure>) -> Void

    /// The log of `script` run on `subject.flatMap(maxPublishers:) { inner($0) }`.
    static func flatMapLog<Inner: Publisher>(
        maxPublishers: Subscribers.Demand, initialDemand: Subscribers.Demand,
        onValue: @escaping (Int, Scripted<Int, Inner.Failure>) -> Subscribers.Demand = { _, _ in .none },
        _ inner: @escaping (Int) -> Inner, script: FlatMapScript<Inner.Failure>
    ) -> [String] where Inner.Output == Int {
        let log = Log<String>()
        let subject = PassthroughSubject<Int, Inner.Failure>()
        let subscriber = Scripted<Int, Inner.Failure>(log: log, initialDemand: initialDemand, onValue: onValue)
        upstream(subject, log: log).flatMap(maxPublishers: maxPublishers, inner).subscribe(subscriber)
        script(subject, subscriber)
        return log.items
    }

    /// Expects the same log from `inner` as from `inner` erased, for one script.
    static func expectSameFlatMap<Inner: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, initialDemand: Subscribers.Demand,
        onValue: @escaping (Int, Scripted<Int, Inner.Failure>) -> Subscribers.Demand = { _, _ in .none },
        _ inner: @escaping (Int) -> Inner, script: FlatMapScript<Inner.Failure>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where Inner.Output == Int {
        #expect(inner(0)._immediateOutcome() != nil, "the check needs an inner publisher with a known outcome")
        let direct = flatMapLog(
            maxPublishers: maxPublishers, initialDemand: initialDemand, onValue: onValue, inner, script: script)
        let subscribed = flatMapLog(
            maxPublishers: maxPublishers, initialDemand: initialDemand, onValue: onValue,
            { Subscribed(base: inner($0)) }, script: script)
        #expect(direct == subscribed, sourceLocation: sourceLocation)
    }

    /// Sends 1, 2 and 3, then finishes.
    static func sendThree<Failure: Error>(_ subject: PassthroughSubject<Int, Failure>, _ subscriber: Scripted<Int, Failure>) {
        for value in 1...3 { subscriber.send(value, to: subject) }
        subscriber.send(completion: .finished, to: subject)
    }

    /// Sends 1, 2 and 3 with no demand, then asks for one at a time, then finishes.
    static func sendThenRequest<Failure: Error>(
        _ subject: PassthroughSubject<Int, Failure>, _ subscriber: Scripted<Int, Failure>
    ) {
        for value in 1...3 { subscriber.send(value, to: subject) }
        subscriber.request(.max(1))
        subscriber.send(completion: .finished, to: subject)
        subscriber.request(.max(1))
        subscriber.request(.max(5))
    }

    @Test func justOptionalAndEmptyUnderEveryDemand() {
        for demand in [Subscribers.Demand.unlimited, .max(1), .max(2), .none] {
            for maxPublishers in [Subscribers.Demand.unlimited, .max(1), .max(2)] {
                Self.expectSameFlatMap(
                    maxPublishers: maxPublishers, initialDemand: demand, { Just($0 * 10) }, script: Self.sendThree)
                Self.expectSameFlatMap(
                    maxPublishers: maxPublishers, initialDemand: demand, { Just($0 * 10) }, script: Self.sendThenRequest)
                Self.expectSameFlatMap(
                    maxPublishers: maxPublishers, initialDemand: demand, { ($0 == 2 ? nil : Optional($0)).publisher },
                    script: Self.sendThenRequest)
                Self.expectSameFlatMap(
                    maxPublishers: maxPublishers, initialDemand: demand, { _ in Empty<Int, Never>() },
                    script: Self.sendThree)
            }
        }
    }

    @Test func failuresAndPublishersBehindSetFailureType() {
        for demand in [Subscribers.Demand.unlimited, .max(1), .none] {
            Self.expectSameFlatMap(
                initialDemand: demand, { ($0 == 2 ? Result<Int, TestError>.failure(.oops) : .success($0)).publisher },
                script: Self.sendThenRequest)
            Self.expectSameFlatMap(
                initialDemand: demand, { $0 == 2 ? Fail(error: TestError.other) : Fail(error: TestError.oops) },
                script: Self.sendThree)
            Self.expectSameFlatMap(
                maxPublishers: .max(1), initialDemand: demand,
                { Just($0).setFailureType(to: TestError.self) }, script: Self.sendThenRequest)
            Self.expectSameFlatMap(
                initialDemand: demand, { _ in Empty<Int, TestError>() }, script: Self.sendThree)
            // What `flatMap { Just($0) }` makes on an upstream that can fail.
            Self.expectSameFlatMap(
                maxPublishers: .max(2), initialDemand: demand,
                { Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just($0)) }, script: Self.sendThenRequest)
        }
    }

    @Test func innerPublishersBehindAnyPublisher() {
        // What `flatMap` closures that choose between a cached value and a request return.
        for demand in [Subscribers.Demand.unlimited, .max(1), .none] {
            Self.expectSameFlatMap(
                maxPublishers: .max(2), initialDemand: demand,
                { value -> AnyPublisher<Int, TestError> in
                    value == 2
                        ? Fail(error: TestError.oops).eraseToAnyPublisher()
                        : Just(value).setFailureType(to: TestError.self).eraseToAnyPublisher()
                }, script: Self.sendThenRequest)
        }
    }

    @Test func reentrantSendsRequestsCancelsAndCompletions() {
        // A send into the upstream from inside the downstream.
        let subjectBox = Locked<PassthroughSubject<Int, Never>?>(nil)
        let script: FlatMapScript<Never> = { subject, subscriber in
            subjectBox.withLock { $0 = subject }
            Self.sendThree(subject, subscriber)
        }
        Self.expectSameFlatMap(
            initialDemand: .max(2),
            onValue: { value, subscriber in
                if value < 100, let subject = subjectBox.withLock({ $0 }) { subscriber.send(value + 100, to: subject) }
                return .max(1)
            }, { Just($0) }, script: script)
        // A request and a cancel from inside the downstream.
        Self.expectSameFlatMap(
            initialDemand: .max(1),
            onValue: { value, subscriber in
                if value == 1 { subscriber.request(.unlimited) }
                if value == 2 { subscriber.cancel() }
                return .none
            }, { Just($0) }, script: Self.sendThree)
        // The upstream finishing from inside the downstream.
        Self.expectSameFlatMap(
            maxPublishers: .max(1), initialDemand: .unlimited,
            onValue: { _, subscriber in
                if let subject = subjectBox.withLock({ $0 }) { subscriber.send(completion: .finished, to: subject) }
                return .none
            }, { Just($0) }, script: script)
    }

    // MARK: catch

    /// The log of `script` run on `subject.catch { _ in recovery() }`.
    static func catchLog<Recovery: Publisher>(
        initialDemand: Subscribers.Demand,
        onValue: @escaping (Int, Scripted<Int, Recovery.Failure>) -> Subscribers.Demand = { _, _ in .none },
        _ recovery: @escaping () -> Recovery,
        script: (PassthroughSubject<Int, TestError>, Scripted<Int, Recovery.Failure>) -> Void
    ) -> [String] where Recovery.Output == Int {
        let log = Log<String>()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = Scripted<Int, Recovery.Failure>(log: log, initialDemand: initialDemand, onValue: onValue)
        upstream(subject, log: log).catch { _ in recovery() }.subscribe(subscriber)
        script(subject, subscriber)
        return log.items
    }

    static func expectSameCatch<Recovery: Publisher>(
        initialDemand: Subscribers.Demand,
        onValue: @escaping (Int, Scripted<Int, Recovery.Failure>) -> Subscribers.Demand = { _, _ in .none },
        _ recovery: @escaping () -> Recovery,
        script: (PassthroughSubject<Int, TestError>, Scripted<Int, Recovery.Failure>) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where Recovery.Output == Int {
        #expect(recovery()._immediateOutcome() != nil, "the check needs a recovery with a known outcome")
        let direct = catchLog(initialDemand: initialDemand, onValue: onValue, recovery, script: script)
        let subscribed = catchLog(
            initialDemand: initialDemand, onValue: onValue, { Subscribed(base: recovery()) }, script: script)
        #expect(direct == subscribed, sourceLocation: sourceLocation)
    }

    /// Sends a value, fails, asks for more, and cancels.
    static func valueThenFailure<Failure: Error>(
        _ subject: PassthroughSubject<Int, TestError>, _ subscriber: Scripted<Int, Failure>
    ) {
        subscriber.send(1, to: subject)
        subscriber.send(completion: .failure(.oops), to: subject)
        subscriber.request(.max(1))
        subscriber.cancel()
    }

    @Test func catchRecoversThroughEveryKindUnderEveryDemand() {
        for demand in [Subscribers.Demand.unlimited, .max(1), .max(2), .none] {
            Self.expectSameCatch(initialDemand: demand, { Just(7) }, script: Self.valueThenFailure)
            Self.expectSameCatch(initialDemand: demand, { Optional(7).publisher }, script: Self.valueThenFailure)
            Self.expectSameCatch(initialDemand: demand, { Optional<Int>.none.publisher }, script: Self.valueThenFailure)
            Self.expectSameCatch(initialDemand: demand, { Empty<Int, Never>() }, script: Self.valueThenFailure)
            Self.expectSameCatch(initialDemand: demand, { Fail<Int, TestError>(error: .other) }, script: Self.valueThenFailure)
            Self.expectSameCatch(
                initialDemand: demand, { Result<Int, TestError>.success(7).publisher }, script: Self.valueThenFailure)
        }
    }

    @Test func catchWithACancelOrRequestFromInsideTheRecoveryValue() {
        Self.expectSameCatch(
            initialDemand: .max(2),
            onValue: { value, subscriber in
                if value == 7 { subscriber.cancel() }
                return .none
            }, { Just(7) }, script: Self.valueThenFailure)
        Self.expectSameCatch(
            initialDemand: .max(2),
            onValue: { value, subscriber in
                if value == 7 { subscriber.request(.max(3)) }
                return .max(1)
            }, { Just(7) }, script: Self.valueThenFailure)
    }

    @Test func neverCompletingEmptyIsSubscribedTo() {
        #expect(Empty<Int, Never>(completeImmediately: false)._immediateOutcome() == nil)
        let subscriber = TestSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().flatMap { _ in Empty<Int, Never>(completeImmediately: false) }
            .subscribe(subscriber)
        #expect(subscriber.completion == nil)
    }

    @Test func theOutcomesTheyReport() {
        #expect(Just(1)._immediateOutcome() == .success(1))
        #expect(Empty<Int, Never>()._immediateOutcome() == .success(nil))
        #expect(Fail<Int, TestError>(error: .oops)._immediateOutcome() == .failure(.oops))
        #expect(Optional(2).publisher._immediateOutcome() == .success(2))
        #expect(Optional<Int>.none.publisher._immediateOutcome() == .success(nil))
        #expect(Result<Int, TestError>.failure(.other).publisher._immediateOutcome() == .failure(.other))
        #expect(Just(3).setFailureType(to: TestError.self)._immediateOutcome() == .success(3))
        #expect(Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just(4))._immediateOutcome() == .success(4))
        #expect(PassthroughSubject<Int, Never>()._immediateOutcome() == nil)
        #expect(Just(5).eraseToAnyPublisher()._immediateOutcome() == .success(5))
        #expect(PassthroughSubject<Int, Never>().eraseToAnyPublisher()._immediateOutcome() == nil)
        #expect(Subscribed(base: Just(6))._immediateOutcome() == nil)
    }
}
