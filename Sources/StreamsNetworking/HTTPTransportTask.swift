/// One exchange made by an ``HTTPTransport``, which the request publisher starts and, if its
/// subscriber cancels, stops.
///
/// The request publisher calls ``resume()`` at most once, then at most one of ``cancel()``
/// (only if it never resumed the task) and ``stop()`` (only after resuming it).
///
/// ```swift
/// let task = transport.makeTask(for: request, redirectPolicy: .default) { _ in }
/// task.resume()
/// task.stop()
/// ```
public protocol HTTPTransportTask: AnyObject, Sendable {
    /// Starts the exchange.
    ///
    /// ```swift
    /// task.resume()
    /// ```
    func resume()

    /// Cancels a task that was never resumed: it never sends anything, and need not call its
    /// completion.
    ///
    /// ```swift
    /// task.cancel()
    /// ```
    func cancel()

    /// Stops a resumed task whose subscriber is gone, releasing what it holds (the connection,
    /// the body received so far). A transport for which interrupting an exchange is not safe
    /// may let it run to its end instead. Its completion may still be called; the request
    /// publisher drops what it reports.
    ///
    /// ```swift
    /// task.stop()
    /// ```
    func stop()
}
