import Foundation
import Streams

/// The last handler of every chain: it presents any error.
///
/// In this order:
/// 1. a ``FatalError``: "OK", which reports it through `onFatalError`;
/// 2. a ``HealableError``: its own `healingOptions`;
/// 3. a Foundation `RecoverableError` with recovery options: those options;
/// 4. anything else by its `ErrorCategory`:
///    - `.retryable`: "Try Again" and "Cancel", unless the server asked to wait longer than
///      `retryAfterLimit` (then "OK": trying again at once cannot help);
///    - `.requiresLogout`: "Log Out", which runs `logOut`;
///    - `.nonRetryable`: "OK" (trying again would give the same answer).
///
/// The message is the error's `LocalizedError.errorDescription` (or a `PresentableError`'s
/// message), or a general sentence for its category; never the error's code-level
/// `description`. A `PresentableError` gives the title. The source is the error's own
/// (``ErrorSourceProviding``, or a `PresentableError`'s origin), or: retryable → external system unavailable, requires logout →
/// external system behaved unexpectedly, fatal → internal inconsistency, otherwise internal
/// inconsistency.
///
/// ```swift
/// let handler = DefaultErrorHandler(logOut: { session.end() }, onFatalError: { crashReporter.send($0) })
/// handler.defaultPresentation(for: URLError(.timedOut)).options.map(\.title)   // depends on the error's category
/// ```
public struct DefaultErrorHandler: ErrorHandler {
    /// Ends the session, for errors that require logging out.
    public var logOut: @Sendable () -> Void
    /// Receives a ``FatalError`` once the user has seen it.
    public var onFatalError: @Sendable (any Error) -> Void
    /// A retryable error whose server asks to wait longer than this gets "OK" instead of "Try
    /// Again".
    public var retryAfterLimit: Duration

    /// Makes the default handler.
    ///
    /// ```swift
    /// let handler = DefaultErrorHandler(logOut: { session.end() })
    /// ```
    public init(
        logOut: @escaping @Sendable () -> Void = {},
        onFatalError: @escaping @Sendable (any Error) -> Void = { _ in },
        retryAfterLimit: Duration = .seconds(30)
    ) {
        self.logOut = logOut
        self.onFatalError = onFatalError
        self.retryAfterLimit = retryAfterLimit
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
        let source = Self.ownSource(of: error)
        let message = Self.ownMessage(of: error)
        if error is any FatalError {
            let report = onFatalError
            return ErrorPresentation(
                source: source ?? .internalInconsistency,
                message: message ?? "The app ran into a problem it cannot recover from.",
                options: [
                    RecoveryOption(title: "OK", role: .recommended) {
                        report(error)
                        return .fail
                    }
                ])
        }
        let options: [RecoveryOption]
        if let healable = error as? any HealableError {
            options = healable.healingOptions
        } else if let recoverable = error as? any RecoverableError, !recoverable.recoveryOptions.isEmpty {
            options = RecoveryOption.options(for: recoverable)
        } else {
            options = categoryOptions(for: error, category: category)
        }
        return ErrorPresentation(
            source: source ?? Self.source(for: category),
            title: Self.ownTitle(of: error) ?? (source == nil && category == .requiresLogout ? "Signed Out" : nil),
            message: message ?? Self.message(for: category),
            options: options)
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
}
