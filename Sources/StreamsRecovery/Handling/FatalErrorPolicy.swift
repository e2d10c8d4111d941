/// What happens once the user has confirmed a ``FatalError`` that ``DefaultErrorHandler``
/// presented, after its `onFatalError` callback has run.
///
/// ```swift
/// let server = DefaultErrorHandler(onFatalError: { report($0) }, whenFatalErrorIsConfirmed: .keepRunning)
/// ```
public enum FatalErrorPolicy: Sendable, Hashable {
    /// The process ends, with a message on standard error that names the error's type and
    /// gives its message (MungoHealer's behaviour, the default): the app cannot go on, and the
    /// user has now been told why.
    case endProcess
    /// The process keeps running and the stream fails with the error: for a host that must not
    /// stop for one request's sake (a server, a tool that handles many documents), where
    /// `onFatalError` reports the error and the caller restarts the flow.
    case keepRunning
}
