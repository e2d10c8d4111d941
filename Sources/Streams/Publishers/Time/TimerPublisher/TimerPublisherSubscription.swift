/// A timer subscriber's subscription: it passes requests and the cancel to the subject behind
/// `Timer.TimerPublisher`, and, like Combine's, conforms to none of the reflection protocols.
@usableFromInline
// Unchecked: it holds the subject's subscription, an `any Subscription`.
final class TimerPublisherSubscription: Subscription, @unchecked Sendable {
    @usableFromInline
    let upstream: any Subscription

    @inlinable
    init(_ upstream: any Subscription) {
        self.upstream = upstream
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    @inlinable
    func cancel() {
        upstream.cancel()
    }
}
