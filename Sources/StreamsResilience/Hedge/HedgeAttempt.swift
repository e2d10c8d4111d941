import Streams

/// The subscriber of one hedged attempt: it reports the attempt's events, with its number, to
/// the ``HedgeSubscription``.
@usableFromInline
struct HedgeAttempt<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Input = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let parent: HedgeSubscription<Upstream, Context, Downstream>
    @usableFromInline
    let number: Int
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: HedgeSubscription<Upstream, Context, Downstream>, number: Int) {
        self.parent = parent
        self.number = number
    }

    @inlinable
    func receive(subscription: any Subscription) {
        parent.receive(subscription: subscription, attempt: number)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        parent.receive(input, attempt: number)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        parent.receive(completion: completion, attempt: number)
    }

    @usableFromInline
    var description: String { "Hedge" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
