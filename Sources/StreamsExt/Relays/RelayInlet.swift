import Streams

/// What a publisher attached to a relay (`relay.subscribe(publisher)`) feeds: it stands for the
/// relay's subject, passing on values and the upstream subscription but never a completion,
/// since a relay finishes only when it goes away.
///
/// The publisher is attached through `subscribe(_:)` to this subject, as Combine attaches one to
/// a subject: the subject is handed the subscription and asks it for values as it would its own
/// (a `PassthroughSubject` once one of its subscribers asks, a `CurrentValueSubject` at once),
/// so a value sent before the relay has a subscriber with demand waits in a lazy publisher
/// instead of being lost.
///
/// ```swift
/// let attachment = ["a", "b"].publisher.subscribe(RelayInlet(storage))
/// ```
// Unchecked: `Storage` is a relay's subject (PassthroughSubject or CurrentValueSubject), Sendable
// itself, but the protocols it is constrained by do not say so.
final class RelayInlet<Storage: Subject & UpstreamKeepingSubject>: Subject, @unchecked Sendable
where Storage.Failure == Never {
    typealias Output = Storage.Output
    typealias Failure = Never

    /// The relay's subject. Kept strongly, as a subject fed by `subscribe(_:)` is kept by the
    /// forwarding subscription until it ends.
    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    func send(_ value: Output) {
        storage.send(value)
    }

    /// The attached publisher finished: the relay stays open.
    func send(completion: Subscribers.Completion<Never>) {}

    func send(subscription: any Subscription) {
        storage.send(subscription: subscription)
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        storage.receive(subscriber: subscriber)
    }
}

extension RelayInlet: UpstreamKeepingSubject {
    /// Hands `subscription` to the relay's subject, which keeps it until the attachment ends.
    package func keep(upstream subscription: any Subscription) -> Int? {
        storage.keep(upstream: subscription)
    }

    /// The attachment ended: the relay's subject lets go of its subscription.
    package func forget(upstream key: Int) {
        storage.forget(upstream: key)
    }
}
