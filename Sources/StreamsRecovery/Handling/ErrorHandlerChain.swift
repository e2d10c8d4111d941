/// Handlers from the most specific to the most general, ending in a ``DefaultErrorHandler``
/// that handles whatever the others pass on: the first handler that handles an error decides
/// how it is presented.
///
/// ```swift
/// let appWide = ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { session.end() }))
/// let signUpScreen = appWide.prepending(SignUpErrors())   // asked first
/// let presentation = signUpScreen.presentation(for: error)
/// ```
public struct ErrorHandlerChain: Sendable {
    /// The handlers, most specific first.
    public var handlers: [any ErrorHandler]
    /// Presents every error the handlers pass on.
    public var fallback: DefaultErrorHandler

    /// Makes a chain of `handlers` (most specific first) that ends in `fallback`.
    ///
    /// ```swift
    /// let chain = ErrorHandlerChain([SignUpErrors(), NetworkErrors()])
    /// ```
    public init(_ handlers: [any ErrorHandler] = [], fallback: DefaultErrorHandler = DefaultErrorHandler()) {
        self.handlers = handlers
        self.fallback = fallback
    }

    /// The chain with `handler` asked before all the others, as a screen adds its own handling
    /// in front of the app's.
    ///
    /// ```swift
    /// let screenChain = appChain.prepending(AnyErrorHandler(for: FormError.self) { ... })
    /// ```
    public func prepending(_ handler: some ErrorHandler) -> ErrorHandlerChain {
        ErrorHandlerChain([handler as any ErrorHandler] + handlers, fallback: fallback)
    }

    /// How to present `error`: the answer of the first handler that handles it, or the
    /// fallback's.
    ///
    /// ```swift
    /// let presentation = chain.presentation(for: URLError(.timedOut))
    /// ```
    public func presentation(for error: any Error) -> ErrorPresentation {
        for handler in handlers {
            if let presentation = handler.presentation(for: error) { return presentation }
        }
        return fallback.defaultPresentation(for: error)
    }
}
