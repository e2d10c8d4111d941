/// An error the app cannot go on from (MungoHealer's `FatalError`). Instead of crashing
/// silently, ``DefaultErrorHandler`` presents it with the error's own message and a single
/// "OK"; when that is chosen, it runs its `onFatalError` hook (to log, save or upload a report)
/// and then ends the process, with a message on standard error that names the error, as
/// MungoHealer does. A host that must not stop (a server) passes
/// `whenFatalErrorIsConfirmed: .keepRunning`: then the stream fails with the error instead.
///
/// Its source defaults to ``ErrorSource/internalInconsistency``.
///
/// ```swift
/// struct CorruptDatabaseFatalError: FatalError {
///     let errorDescription = "Your data could not be read. The app will restart."
/// }
/// let app = DefaultErrorHandler(onFatalError: { error in crashReporter.send(error) })   // then the process ends
/// let server = DefaultErrorHandler(onFatalError: { log($0) }, whenFatalErrorIsConfirmed: .keepRunning)
/// ```
public protocol FatalError: UserFacingError {}

extension FatalError {
    /// ``ErrorSource/internalInconsistency``: a state the app cannot go on from is its own
    /// bug until shown otherwise.
    ///
    /// ```swift
    /// CorruptDatabaseFatalError().source   // .internalInconsistency
    /// ```
    public var source: ErrorSource { .internalInconsistency }
}
