import Synchronization

extension Publisher {
    /// Sends this publisher's values and completion into `subject`.
    ///
    /// The subject asks for values once one of its own subscribers does. Cancel the result to
    /// stop forwarding.
    ///
    /// ```swift
    /// let relay = PassthroughSubject<Int, Never>()
    /// let forwarding = [1, 2, 3].publisher.receive(subscriber: relay)
    /// ```
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject: subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}

/// Forwards a publisher into a subject, and is the subscription the subject sees.
@usableFromInline
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let lock = Mutex<Void>(())
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var subject: Downstream?
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription

    @inlinable
    init(subject: Downstream) {
        self.subject = subject
    }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, subject != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let subject = lock.withLockUnchecked({ subject }) else {
            subscription.cancel()
            return
        }
        subject.send(subscription: self)
    }

    @inlinable
    func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        let subject = lock.withLockUnchecked { () -> Downstream? in
            guard case .subscribed = status else { return nil }
            return self.subject
        }
        subject?.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let subject = lock.withLockUnchecked { () -> Downstream? in
            guard case .subscribed = status else { return nil }
            status = .terminal
            defer { self.subject = nil }
            return self.subject
        }
        subject?.send(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        lock.withLockUnchecked { status.subscription }?.request(demand)
    }

    @inlinable
    func cancel() {
        let taken = lock.withLockUnchecked { () -> ((any Subscription)?, Downstream?) in
            defer {
                status = .terminal
                subject = nil
            }
            return (status.subscription, subject)
        }
        taken.0?.cancel()
    }

    @usableFromInline
    var description: String { "Subject" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["subject": subject as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
