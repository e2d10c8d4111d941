/// An error the app cannot go on from. Instead of crashing silently, ``DefaultErrorHandler``
/// presents it with a single "OK", and when that is chosen reports it through its
/// `onFatalError` callback (which may log, upload a report, or end the process), and the
/// stream fails with it.
///
/// ```swift
/// struct CorruptDatabase: FatalError, LocalizedError {
///     var errorDescription: String? { "Your data could not be read. The app will restart." }
/// }
/// let handler = DefaultErrorHandler(onFatalError: { error in crashReporter.send(error); exit(1) })
/// ```
public protocol FatalError: Error {}
