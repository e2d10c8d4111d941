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
    /// Told about every error the chain presents, with its presentation (see ``logging(_:)``).
    public var log: (@Sendable (any Error, ErrorPresentation) -> Void)?

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
        var chain = self
        chain.handlers.insert(handler, at: 0)
        return chain
    }

    /// The chain that also tells `log` about every error it presents, and how (MungoHealer's
    /// `AlertLogErrorHandler`: whatever shows the presentation, every error is logged once).
    ///
    /// ```swift
    /// let chain = ErrorHandlerChain().logging { error, presentation in
    ///     logger.error("\(String(reflecting: error)) shown as \(presentation)")
    /// }
    /// ```
    public func logging(_ log: @escaping @Sendable (any Error, ErrorPresentation) -> Void) -> ErrorHandlerChain {
        var chain = self
        chain.log = log
        return chain
    }

    /// How to present `error`: the answer of the first handler that handles it, or the
    /// fallback's. A presentation that came without options gets a single "Dismiss", and the
    /// fallback's `warn` is told.
    ///
    /// ```swift
    /// let presentation = chain.presentation(for: URLError(.timedOut))
    /// ```
    public func presentation(for error: any Error) -> ErrorPresentation {
        var presentation: ErrorPresentation?
        for handler in handlers {
            presentation = handler.presentation(for: error)
            if presentation != nil { break }
        }
        if let handled = presentation, handled.replacedMissingOptions || handled.options.isEmpty {
            fallback.warn("A handler presented \(type(of: error)) without options; it is offered a single \"Dismiss\" instead.")
            if handled.options.isEmpty { presentation?.options = [.dismiss()] }
        }
        let chosen = presentation ?? fallback.defaultPresentation(for: error)
        log?(error, chosen)
        return chosen
    }
}
