import Streams
import StreamsTesting
import Testing

/// Zero demand in the time operators, as in Combine: `request(.none)` is accepted, never a trap,
/// and the operator still delivers after a later real request.
@Suite struct TimeOperatorZeroDemandTests {
    private static func ints() -> ManualUpstream<Int, TestError> {
        ManualUpstream(failure: .oops) { $0 }
    }

    /// Operators that hand `.none` straight to their upstream.
    static let forwarding:
        [(String, @Sendable (ManualUpstream<Int, TestError>, TestScheduler) -> AnyPublisher<String, any Error>)] = [
            ("receive(on:)", { $0.receive(on: $1).contract() }),
            ("delay", { $0.delay(for: .seconds(1), scheduler: $1).contract() }),
            ("timeout", { $0.timeout(.seconds(100), scheduler: $1).contract() }),
            ("measureInterval", { $0.measureInterval(using: $1).map { _ in 0 }.contract() }),
        ]

    @Test(arguments: forwarding.map(\.0))
    func zeroDemandIsForwardedUpstream(_ name: String) throws {
        let build = try #require(Self.forwarding.first { $0.0 == name }?.1)
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<String, any Error>(initialDemand: nil)
        build(upstream, scheduler).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        #expect(upstream.subscriptions.last?.requests == [Subscribers.Demand.none])
        subscription.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.none, .max(1)])
        upstream.send(7)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.count == 1)
    }

    @Test func subscribeOnSchedulesZeroDemand() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.advance()
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        #expect(upstream.subscriptions.last?.requests == [])
        scheduler.advance()
        #expect(upstream.subscriptions.last?.requests == [Subscribers.Demand.none])
        subscription.request(.max(1))
        scheduler.advance()
        #expect(upstream.subscriptions.last?.requests == [.none, .max(1)])
        upstream.send(7)
        #expect(subscriber.values == [7])
    }

    /// Operators that ask upstream for everything at once: `.none` adds nothing to their demand.
    static let eager: [(String, @Sendable (ManualUpstream<Int, TestError>, TestScheduler) -> AnyPublisher<Int, TestError>)] = [
        ("debounce", { $0.debounce(for: .seconds(1), scheduler: $1).eraseToAnyPublisher() }),
        ("throttle", { $0.throttle(for: .seconds(1), scheduler: $1, latest: true).eraseToAnyPublisher() }),
    ]

    @Test(arguments: eager.map(\.0))
    func zeroDemandAddsNothing(_ name: String) throws {
        let build = try #require(Self.eager.first { $0.0 == name }?.1)
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: nil)
        build(upstream, scheduler).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        subscription.request(.none)
        #expect(upstream.subscriptions.last?.requests == [.unlimited])
        // Still no demand: the value is dropped.
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values.isEmpty)
        subscription.request(.max(1))
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [2])
    }

    /// As in Combine, every request, `.none` included, asks upstream for one value.
    @Test func collectByTimeAsksUpstreamForOneValuePerRequest() throws {
        let scheduler = TestScheduler()
        let upstream = Self.ints()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: nil)
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(upstream.subscriptions.last?.requests == [.max(1)])
        subscription.request(.none)
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(1)])
        subscription.request(.max(1))
        #expect(upstream.subscriptions.last?.requests == [.max(1), .max(1), .max(1)])
        upstream.send(1)
        upstream.send(2)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2]])
    }
}
