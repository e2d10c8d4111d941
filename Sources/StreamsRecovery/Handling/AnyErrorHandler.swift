/// An ``ErrorHandler`` made from a closure.
///
/// ```swift
/// let offline = AnyErrorHandler(for: URLError.self) { error in
///     error.code == .notConnectedToInternet
///         ? ErrorPresentation(source: .externalSystemUnavailable, message: "You are offline.", options: [.ok()])
///         : nil
/// }
/// ```
public struct AnyErrorHandler: ErrorHandler {
    private let body: @Sendable (any Error) -> ErrorPresentation?

    /// A handler that asks `body` about every error.
    ///
    /// ```swift
    /// let everything = AnyErrorHandler { error in nil }   // passes everything on
    /// ```
    public init(_ body: @escaping @Sendable (any Error) -> ErrorPresentation?) {
        self.body = body
    }

    /// A handler that asks `body` about the errors of type `type` and passes the rest on.
    ///
    /// ```swift
    /// let forms = AnyErrorHandler(for: FormError.self) { error in
    ///     ErrorPresentation(source: .invalidUserInput, message: error.hint, options: [.ok()])
    /// }
    /// ```
    public init<Handled: Error>(for type: Handled.Type, _ body: @escaping @Sendable (Handled) -> ErrorPresentation?) {
        self.body = { error in (error as? Handled).flatMap(body) }
    }

    /// What `body` says.
    public func presentation(for error: any Error) -> ErrorPresentation? {
        body(error)
    }
}
