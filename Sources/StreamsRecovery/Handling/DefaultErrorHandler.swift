import Foundation
import Streams

/// The last handler of every chain: it presents any error.
///
/// The options, in this order:
/// 1. a ``FatalError``: "OK", which runs `onFatalError` and then, by default, ends the process
///    with a message that names the error (`whenFatalErrorIsConfirmed: .keepRunning` keeps it
///    running: the stream fails with the error);
/// 2. a ``HealableError``: its own `healingOptions` (none: a single "Dismiss", and a warning
///    through `warn`);
/// 3. a Foundation `RecoverableError` with recovery options: those options, the first in the
///    cancel role (see ``RecoveryOption/options(for:attempter:)`` and `recoveryAttempter`);
/// 4. anything else by its `ErrorCategory`:
///    - `.retryable`: "Try Again" and "Cancel", unless the server asked to wait longer than
///      `retryAfterLimit` (then "OK": trying again at once cannot help);
///    - `.requiresLogout`: "Log Out", which runs `logOut`; with the `.automatic` policy (the
///      default) it is also the ``ErrorPresentation/automaticChoice``, taken without asking;
///    - `.nonRetryable`: "OK" (trying again would give the same answer).
///
/// The title and message come from the error (see ``UserFacingError``; a `PresentableError`
/// gives both; a `LocalizedError` with a `failureReason` or `recoverySuggestion` gives its
/// `errorDescription` as the title and those, joined as sentences, as the message), or else from
/// `genericText`: by default its source's title and a general sentence for its category
/// (``GenericErrorText``); never from the error's code-level `description`. The
/// source is the error's own (``ErrorSourceProviding``, or a `PresentableError`'s origin), or:
/// retryable → external system unavailable, requires logout → external system behaved
/// unexpectedly, otherwise internal inconsistency.
///
/// ```swift
/// let handler = DefaultErrorHandler(logOut: { session.end() }, onFatalError: { crashReporter.send($0) })
/// handler.defaultPresentation(for: URLError(.timedOut)).options.map(\.title)   // depends on the error's category
/// ```
public struct DefaultErrorHandler: ErrorHandler {
    /// Ends the session, for errors that require logging out.
    public var logOut: @Sendable () -> Void
    /// Runs once the user has confirmed a ``FatalError``, before `whenFatalErrorIsConfirmed`
    /// applies: the place to log, save or report.
    public var onFatalError: @Sendable (any Error) -> Void
    /// Whether the process ends once a ``FatalError`` is confirmed (the default) or keeps
    /// running.
    public var whenFatalErrorIsConfirmed: FatalErrorPolicy
    /// The title and message of an error that gives none of its own.
    public var genericText: GenericErrorText
    /// What the attempter of a Foundation `RecoverableError` does when it succeeds: retries
    /// itself (the default: the pipeline ends quietly) or prepares the pipeline's retry.
    public var recoveryAttempter: RecoveryAttempter
    /// A retryable error whose server asks to wait longer than this gets "OK" instead of "Try
    /// Again". Defaults to `RetryAfter.defaultLimit`, the automatic retry's limit too.
    public var retryAfterLimit: Duration
    /// Whether an error that requires logging out logs out without asking.
    public var whenLogoutIsRequired: LogoutPolicy
    /// Receives a warning about a presentation that had to be repaired (no options); the default
    /// writes it to standard error.
    public var warn: @Sendable (String) -> Void

    /// Makes the default handler.
    ///
    /// ```swift
    /// let handler = DefaultErrorHandler(logOut: { session.end() }, warn: { logger.warning("\($0)") })
    /// let server = DefaultErrorHandler(whenFatalErrorIsConfirmed: .keepRunning, genericText: .plain)
    /// ```
    public init(
        logOut: @escaping @Sendable () -> Void = {},
        onFatalError: @escaping @Sendable (any Error) -> Void = { _ in },
        whenFatalErrorIsConfirmed: FatalErrorPolicy = .endProcess,
        genericText: GenericErrorText = .byCategory,
        recoveryAttempter: RecoveryAttempter = .retriesItself,
        retryAfterLimit: Duration = RetryAfter.defaultLimit,
        whenLogoutIsRequired: LogoutPolicy = .automatic,
        warn: @escaping @Sendable (String) -> Void = DefaultErrorHandler.writeToStandardError
    ) {
        self.logOut = logOut
        self.onFatalError = onFatalError
        self.whenFatalErrorIsConfirmed = whenFatalErrorIsConfirmed
        self.genericText = genericText
        self.recoveryAttempter = recoveryAttempter
        self.retryAfterLimit = retryAfterLimit
        self.whenLogoutIsRequired = whenLogoutIsRequired
        self.warn = warn
    }

    /// Always handles `error`.
    public func presentation(for error: any Error) -> ErrorPresentation? {
        defaultPresentation(for: error)
    }

    /// How `error` is presented (see the type's description).
    ///
    /// ```swift
    /// let presentation = DefaultErrorHandler().defaultPresentation(for: error)
    /// ```
    public func defaultPresentation(for error: any Error) -> ErrorPresentation {
        let category = error.resolveCategory()
        let ownSource = Self.ownSource(of: error)
        let text = PresentationText(for: error)
        if error is any FatalError {
            return fatalPresentation(for: error, source: ownSource, text: text)
        }
        let options: [RecoveryOption]
        var automaticChoice: RecoveryOption?
        if let healable = error as? any HealableError {
            options = healable.healingOptions
            if options.isEmpty {
                warn("\(type(of: error)) has no healing options; it is presented with a single \"Dismiss\" instead.")
            }
        } else if let recoverable = error as? any RecoverableError, !recoverable.recoveryOptions.isEmpty {
            options = RecoveryOption.options(for: recoverable, attempter: recoveryAttempter)
        } else {
            options = categoryOptions(for: error, category: category)
            if category == .requiresLogout, whenLogoutIsRequired == .automatic { automaticChoice = options.first }
        }
        let genericTitle = genericText.title ?? (category == .requiresLogout ? "Signed Out" : nil)
        return ErrorPresentation(
            source: ownSource ?? Self.source(for: category),
            title: text.title ?? (ownSource == nil ? genericTitle : nil),
            message: text.message ?? genericText.message ?? Self.message(for: category),
            options: options,
            automaticChoice: automaticChoice)
    }

    /// A ``FatalError``: its own title and message, and "OK", which runs `onFatalError` and then
    /// ends the process, unless it is to keep running.
    private func fatalPresentation(for error: any Error, source: ErrorSource?, text: PresentationText) -> ErrorPresentation {
        let (report, policy) = (onFatalError, whenFatalErrorIsConfirmed)
        let message = text.message ?? "The app ran into a problem it cannot recover from."
        return ErrorPresentation(
            source: source ?? .internalInconsistency,
            title: text.title,
            message: message,
            options: [
                RecoveryOption(title: "OK", role: .recommended) {
                    report(error)
                    if policy == .endProcess {
                        fatalError(
                            "StreamsRecovery: the user confirmed the fatal error \(type(of: error)) (\(message)), and a "
                                + "confirmed FatalError ends the process (DefaultErrorHandler(whenFatalErrorIsConfirmed: "
                                + ".keepRunning) keeps it running)")
                    }
                    return .fail
                }
            ])
    }

    private func categoryOptions(for error: any Error, category: ErrorCategory) -> [RecoveryOption] {
        switch category {
        case .retryable:
            if let wait = (error as? any RetryAfterProviding)?.retryAfter, wait > retryAfterLimit {
                return [.ok()]
            }
            return [.tryAgain(), .cancel()]
        case .requiresLogout:
            return [.logOut(perform: logOut)]
        case .nonRetryable:
            return [.ok()]
        }
    }

    private static func source(for category: ErrorCategory) -> ErrorSource {
        switch category {
        case .retryable: .externalSystemUnavailable
        case .requiresLogout: .externalSystemBehavedUnexpectedly
        case .nonRetryable: .internalInconsistency
        }
    }

    private static func message(for category: ErrorCategory) -> String {
        switch category {
        case .retryable: "The service could not be reached. Please try again."
        case .requiresLogout: "Your session has ended. Please sign in again."
        case .nonRetryable: "The request could not be completed."
        }
    }

    /// The default `warn`: writes `StreamsRecovery warning: <message>` to standard error.
    ///
    /// ```swift
    /// DefaultErrorHandler.writeToStandardError("something to fix")
    /// ```
    @Sendable
    public static func writeToStandardError(_ message: String) {
        FileHandle.standardError.write(Data("StreamsRecovery warning: \(message)\n".utf8))
    }
}
