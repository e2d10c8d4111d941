import Streams

/// A subscriber that asks for everything and keeps neither its subscription nor anything else:
/// a pipeline it is attached to lives only as long as something upstream or a scheduler holds it.
/// It records what arrives as text ("1", "finished", "failure").
final class ForgetfulSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    let events: Log<String>
    let onCompletion: @Sendable () -> Void

    init(events: Log<String>, onCompletion: @escaping @Sendable () -> Void = {}) {
        self.events = events
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        events.append("\(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .finished = completion { events.append("finished") } else { events.append("failure") }
        onCompletion()
    }
}
