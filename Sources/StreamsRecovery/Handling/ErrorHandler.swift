/// One link of an ``ErrorHandlerChain``: it either handles an error, by returning how to
/// present it, or passes it on to the next, more general handler by returning `nil` (as the
/// responder chain passes an event up from a view to its controllers).
///
/// ```swift
/// struct SignUpErrors: ErrorHandler {
///     func presentation(for error: any Error) -> ErrorPresentation? {
///         guard let error = error as? SignUpError else { return nil }   // not mine: pass it on
///         return ErrorPresentation(source: .invalidUserInput, message: error.hint, options: [.ok()])
///     }
/// }
/// ```
public protocol ErrorHandler: Sendable {
    /// How to present `error`, or `nil` to pass it on.
    func presentation(for error: any Error) -> ErrorPresentation?
}
