/// Which publisher a ``SubjectCore`` serves: it decides how the core treats upstream
/// subscriptions and how its conduits describe themselves and treat demand.
@usableFromInline
enum SubjectKind: Sendable {
    /// ``PassthroughSubject``.
    case passthrough
    /// ``CurrentValueSubject``.
    case currentValue
    /// ``PublishedSubject``, the subject behind a `@Published` property's `$property`.
    case published
    /// The subject behind ``ObservableObjectPublisher``.
    case observableObject

    /// Whether the subject has a current value that each subscriber is owed first and that a
    /// subscriber which missed values receives on its next request.
    @inlinable
    var replaysCurrent: Bool {
        switch self {
        case .currentValue, .published: true
        case .passthrough, .observableObject: false
        }
    }

    /// The description of a conduit: Combine's name for the subscription.
    @usableFromInline
    var conduitDescription: String {
        switch self {
        case .passthrough: "PassthroughSubject"
        case .currentValue: "CurrentValueSubject"
        case .published: "PublishedSubject"
        case .observableObject: "ObservableObjectPublisher"
        }
    }
}
