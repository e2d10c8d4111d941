/// The subject behind a `@Published` property's `$property`, as in Combine an object of its own
/// type: the subscriptions it hands out describe themselves "PublishedSubject" and show it as
/// their `parent` and `subject`.
///
/// It holds the property's current value and behaves as a ``CurrentValueSubject`` that never
/// completes: each subscriber receives the current value on its first request, then every new
/// value.
@usableFromInline
final class PublishedSubject<Value>: Sendable {
    @usableFromInline
    let core: SubjectCore<Value, Never>

    /// A subject holding `value`.
    @inlinable
    init(_ value: Value) {
        core = SubjectCore(current: value, kind: .published)
    }

    /// Attaches `subscriber`; it receives the current value on its first request.
    @inlinable
    @inline(__always)
    func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        core.attach(subscriber, to: self)
    }

    /// Makes `value` the current value and sends it to every subscriber.
    @inlinable
    func send(_ value: Value) {
        core.send(value, storing: true, evenAfterCompletion: false)
    }
}
