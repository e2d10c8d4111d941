/// The words ``DefaultErrorHandler`` gives an error that has none of its own: no
/// ``UserFacingError`` message, no `PresentableError` title, no `LocalizedError` text, and (for
/// the title) no ``ErrorSource`` of its own.
///
/// ``byCategory``, the default, words it by what its `ErrorCategory` says: "Service Unavailable:
/// The service could not be reached. Please try again." for a retryable error, "Something Went
/// Wrong: The request could not be completed." for the rest. ``plain`` gives every such error the
/// same title and message, as the error-propagation article does. Set either part alone to keep
/// the other by category.
///
/// ```swift
/// let handler = DefaultErrorHandler(genericText: .plain)
/// handler.defaultPresentation(for: CocoaError(.fileNoSuchFile)).title   // "Error"
/// let ours = DefaultErrorHandler(genericText: GenericErrorText(message: "That did not work. Please try again."))
/// ```
public struct GenericErrorText: Sendable, Hashable {
    /// The title; nil for the title of the source its category gives (``ErrorSource/defaultTitle``,
    /// or "Signed Out" when the error requires logging out).
    public var title: String?
    /// The message; nil for the sentence its category gives.
    public var message: String?

    /// Makes the setting; a part left nil is worded by the error's category.
    ///
    /// ```swift
    /// let text = GenericErrorText(title: "Oops", message: "Something went wrong. Please try again.")
    /// ```
    public init(title: String? = nil, message: String? = nil) {
        self.title = title
        self.message = message
    }

    /// Both parts by the error's category (the default).
    ///
    /// ```swift
    /// DefaultErrorHandler(genericText: .byCategory).defaultPresentation(for: error).title   // "Something Went Wrong"
    /// ```
    public static let byCategory = GenericErrorText()

    /// The title "Error" and the message "Something bad happened. Please try again" for every
    /// error without words of its own, whatever its category, as the error-propagation article
    /// shows one.
    ///
    /// ```swift
    /// DefaultErrorHandler(genericText: .plain).defaultPresentation(for: error).message   // "Something bad happened. Please try again"
    /// ```
    public static let plain = GenericErrorText(title: "Error", message: "Something bad happened. Please try again")
}
