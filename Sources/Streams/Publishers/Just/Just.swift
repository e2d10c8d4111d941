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

    /// `.success(output)`: the value, then `.finished`.
    ///
    /// ```swift
    /// Just(1)._immediateOutcome()   // .success(1)
    /// ```
    @inlinable
    @inline(__always)
    public func _immediateOutcome() -> Result<Output?, Never>? { .success(output) }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// The subscription of ``Just`` (and of a successful `Result.Publisher` or a non-nil
/// `Optional.Publisher`): delivers the value and `.finished` on the first request.
///
/// As in Combine, the subscription keeps the value for its whole life (its mirror shows it,
/// also after the delivery or a cancel); only the downstream is let go.
///
/// Unchecked `Sendable`: it holds the value, which need not be `Sendable`, as Combine's does.
@usableFromInline
final class JustSubscription<Output, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Output {
    /// The subscriber, until the request or the cancel takes it.
    ///
    /// It lives in an object of its own because the deinitializer of a generic class runs
    /// unspecialised code, which looks up the type metadata of every field of optional generic
    /// type, or of an associated type, at run time: such fields cost more than the rest of a
    /// subscribe-and-cancel cycle. An optional class reference is released without a lookup,
    /// and `Output` is a generic parameter of its own for the same reason.
    @usableFromInline
    final class Pending {
        @usableFromInline
        let downstream: Downstream

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }
    }

    @usableFromInline
    let name: String
    /// The subscriber (a `Pending`), until the request or the cancel takes it. Kept as an
    /// `AnyObject`, so that the state's type does not depend on the generic parameters: the
    /// deinitializer, which runs unspecialised, then destroys it without looking up the type
    /// metadata of the lock's storage.
    @usableFromInline
    let state: LockedState<AnyObject?>
    /// The value, kept after it is delivered: the mirror shows it. Stored last, so that the
    /// other fields keep offsets known at compile time in unspecialised code.
    @usableFromInline
    let value: Output

    @inlinable
    init(name: String, value: Output, downstream: Downstream) {
        self.name = name
        self.value = value
        state = LockedState(Pending(downstream: downstream))
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "API Violation: demand must not be zero")
        guard let pending = take() else { return }
        _ = pending.downstream.receive(value)
        pending.downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        // Taken out of the lock so that the subscriber is released outside it.
        withExtendedLifetime(take()) {}
    }

    /// Empties `pending` and hands back what it held.
    @inlinable
    func take() -> Pending? {
        state.withLock { pending in
            defer { pending = nil }
            return pending
        }.map { unsafeDowncast($0, to: Pending.self) }
    }

    @usableFromInline
    var description: String { name }

    /// One unlabeled child: the value itself, not wrapped in an `Optional`.
    @usableFromInline
    var customMirror: Mirror { Mirror(self, unlabeledChildren: [value as Any]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
