/// The state of a ``Publishers/Multicast``: whether its subject has been made. A value with no
/// lock and no callouts; `createSubject` runs outside the lock, between ``subject()`` and
/// ``keep(_:)``.
///
/// Phases: `unmade` → (`keep`) → `made(subject, link)`, for good. `link` is what every
/// connection feeds (see ``WeakSubject``).
@usableFromInline
struct MulticastStateMachine<SubjectType: Subject> {
    @usableFromInline
    enum Phase {
        case unmade
        case made(SubjectType, link: WeakSubject<SubjectType>)
    }

    @usableFromInline
    var phase = Phase.unmade

    @inlinable
    init() {}

    /// The subject, or `nil` when it must be made.
    @inlinable
    func subject() -> SubjectType? {
        if case .made(let subject, _) = phase { return subject }
        return nil
    }

    /// What the connections feed, once the subject is made.
    @inlinable
    var link: WeakSubject<SubjectType>? {
        if case .made(_, let link) = phase { return link }
        return nil
    }

    /// A subject was made: keeps it, unless another thread kept one first, and returns the one
    /// kept.
    @inlinable
    mutating func keep(_ made: SubjectType) -> SubjectType {
        if case .made(let subject, _) = phase { return subject }
        phase = .made(made, link: WeakSubject(made))
        return made
    }
}
