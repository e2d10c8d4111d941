/// A subject's handle on one subscriber's conduit.
///
/// The closures are made where the conduit's type is known, so that sending through them runs
/// specialised code; calling a generic class's methods through a base class would run the
/// unspecialised implementation, which looks type metadata up on every value. They take the
/// value or the completion by address, so that the entry's type, and the lists in the subject's
/// ``SubjectRoster`` that hold it, do not depend on the subject's types.
@usableFromInline
struct SubjectConduitEntry {
    /// Delivers the `Output` at the address, sent by the given thread (see
    /// `SubjectConduit.offer(_:from:)`).
    @usableFromInline
    let offer: (UnsafeRawPointer, Int) -> Void
    /// Delivers the `Subscribers.Completion<Failure>` at the address (or queues it behind a
    /// delivery in progress).
    @usableFromInline
    let finish: (UnsafeRawPointer) -> Void

    @inlinable
    init<Downstream: Subscriber>(_ conduit: SubjectConduit<Downstream>) {
        offer = { value, thread in
            conduit.offer(value.assumingMemoryBound(to: Downstream.Input.self).pointee, from: thread)
        }
        finish = { completion in
            conduit.finish(
                completion.assumingMemoryBound(to: Subscribers.Completion<Downstream.Failure>.self).pointee)
        }
    }

    /// An entry that calls these closures.
    @inlinable
    init(offer: @escaping (UnsafeRawPointer, Int) -> Void, finish: @escaping (UnsafeRawPointer) -> Void) {
        self.offer = offer
        self.finish = finish
    }

    /// What stands for a removed conduit in the subject's list: it ignores what it is given.
    @inlinable
    static var removed: Self {
        Self(offer: { _, _ in }, finish: { _ in })
    }
}
