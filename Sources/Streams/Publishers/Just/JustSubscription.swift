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
