import Synchronization

/// A publisher that sends one value to each subscriber, then finishes.
///
/// The value goes out on the subscriber's first request for one or more values.
///
/// ```swift
/// let cancellable = Just("hello").sink { print($0) }   // "hello"
/// ```
public struct Just<Output>: Publisher {
    /// `Just` never fails.
    public typealias Failure = Never

    /// The value sent to every subscriber.
    public let output: Output

    /// Makes a publisher that sends `output` and finishes.
    ///
    /// ```swift
    /// let one = Just(1)
    /// ```
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Sends the subscription; the value and `.finished` follow the first request.
    @inlinable
    @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription(name: "Just", value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// The subscription of ``Just`` (and of a successful `Result.Publisher` or a non-nil
/// `Optional.Publisher`): delivers the value and `.finished` on the first request.
@usableFromInline
final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    let name: String
    @usableFromInline
    let lock = Mutex<Void>(())
    @usableFromInline
    @exclusivity(unchecked)
    var value: Downstream.Input?
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Downstream?

    @inlinable
    init(name: String, value: Downstream.Input, downstream: Downstream) {
        self.name = name
        self.value = value
        self.downstream = downstream
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Subscription.request requires a demand greater than .none")
        let taken = lock.withLockUnchecked { () -> (Downstream, Downstream.Input)? in
            guard let downstream, let value else { return nil }
            self.downstream = nil
            self.value = nil
            return (downstream, value)
        }
        guard let (downstream, value) = taken else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        let released = lock.withLockUnchecked { () -> (Downstream?, Downstream.Input?) in
            defer { downstream = nil; value = nil }
            return (downstream, value)
        }
        withExtendedLifetime(released) {}
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked { Mirror(self, children: ["downstream": downstream as Any, "value": value as Any]) }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
