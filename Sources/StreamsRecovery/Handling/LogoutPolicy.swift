/// What ``DefaultErrorHandler`` does with an error whose category is `requiresLogout`.
///
/// ```swift
/// let asking = DefaultErrorHandler(logOut: { session.end() }, whenLogoutIsRequired: .ask)
/// ```
public enum LogoutPolicy: Sendable, Hashable {
    /// Log out without asking: the presentation's ``ErrorPresentation/automaticChoice`` is
    /// "Log Out", which `recover(through:presenter:)` and ``ErrorRouter`` take without calling
    /// their presenter. The default, as in the error-propagation article: a session the server
    /// has ended cannot be continued, so there is nothing to ask.
    case automatic
    /// Offer "Log Out" and let the user choose it, as for any other error.
    case ask
}
