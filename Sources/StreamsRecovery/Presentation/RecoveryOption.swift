/// One choice offered to the user about an error: a title, a role that tells a view how to
/// show it, and the action run when it is chosen, which says what the pipeline does next.
///
/// ```swift
/// let options: [RecoveryOption] = [
///     .tryAgain(),
///     RecoveryOption(title: "Use Offline Copy") { showCachedCopy(); return .cancel },
///     .cancel(),
/// ]
/// ```
public struct RecoveryOption: Sendable, CustomStringConvertible {
    /// How a view shows an option.
    ///
    /// ```swift
    /// let button = option.role == .destructive ? redButton(option.title) : plainButton(option.title)
    /// ```
    public enum Role: Sendable, Hashable {
        /// The choice most users should make: the default button.
        case recommended
        /// An ordinary choice.
        case normal
        /// A choice that loses something (data, a session): shown as a warning.
        case destructive
        /// Dismisses without doing anything.
        case cancel
    }

    /// The button's text.
    public var title: String
    /// How the option is shown.
    public var role: Role
    /// Runs when the option is chosen; what it returns tells the pipeline what to do.
    public var action: @Sendable () -> RecoveryDecision

    /// Makes an option.
    ///
    /// ```swift
    /// let settings = RecoveryOption(title: "Open Settings") { openSettings(); return .cancel }
    /// ```
    public init(title: String, role: Role = .normal, action: @escaping @Sendable () -> RecoveryDecision) {
        self.title = title
        self.role = role
        self.action = action
    }

    /// Runs the action: what the user's choice means for the pipeline.
    ///
    /// ```swift
    /// if option.choose() == .tryAgain { request() }
    /// ```
    public func choose() -> RecoveryDecision {
        action()
    }

    /// "Try Again": subscribes again (recommended).
    ///
    /// ```swift
    /// let options: [RecoveryOption] = [.tryAgain(), .cancel()]
    /// ```
    public static func tryAgain(_ title: String = "Try Again") -> RecoveryOption {
        RecoveryOption(title: title, role: .recommended) { .tryAgain }
    }

    /// "Cancel": ends the stream quietly.
    ///
    /// ```swift
    /// let options: [RecoveryOption] = [.tryAgain(), .cancel()]
    /// ```
    public static func cancel(_ title: String = "Cancel") -> RecoveryOption {
        RecoveryOption(title: title, role: .cancel) { .cancel }
    }

    /// "OK": the user has read the message; the stream fails with the error.
    ///
    /// ```swift
    /// let options: [RecoveryOption] = [.ok()]
    /// ```
    public static func ok(_ title: String = "OK") -> RecoveryOption {
        RecoveryOption(title: title, role: .recommended) { .fail }
    }

    /// "Dismiss": closes the message without doing anything; the stream fails with the error, as
    /// with "OK". The option a presentation falls back to when it was given none.
    ///
    /// ```swift
    /// let options: [RecoveryOption] = [.dismiss()]
    /// ```
    public static func dismiss(_ title: String = "Dismiss") -> RecoveryOption {
        RecoveryOption(title: title, role: .cancel) { .fail }
    }

    /// "Log Out": runs `logOut`; the stream fails with the error.
    ///
    /// ```swift
    /// let options: [RecoveryOption] = [.logOut { session.end() }]
    /// ```
    public static func logOut(_ title: String = "Log Out", perform logOut: @escaping @Sendable () -> Void) -> RecoveryOption {
        RecoveryOption(title: title, role: .destructive) {
            logOut()
            return .fail
        }
    }

    /// The title and, unless normal, the role: `Try Again (recommended)`.
    public var description: String {
        switch role {
        case .normal: title
        case .recommended: "\(title) (recommended)"
        case .destructive: "\(title) (destructive)"
        case .cancel: "\(title) (cancel)"
        }
    }
}
