/// An error the app cannot go on from (MungoHealer's `FatalError`). Instead of crashing
/// silently, ``DefaultErrorHandler`` presents it with the error's own message and a single
/// "OK", and when that is chosen runs its `onFatalError` hook (which may log, upload a report,
/// or end the process), and the stream fails with it.
///
/// Its source defaults to ``ErrorSource/internalInconsistency``.
///
/// ```swift
/// struct CorruptDatabaseFatalError: FatalError {
///     let errorDescription = "Your data could not be read. The app will restart."
/// }
/// let handler = DefaultErrorHandler(onFatalError: { error in crashReporter.send(error); exit(1) })
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
