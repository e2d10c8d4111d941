/// Something whose activity can be stopped.
///
/// Cancelling frees what the activity holds. Cancelling twice has no further effect.
///
/// ```swift
/// let work: any Cancellable = subject.sink { print($0) }
/// work.cancel()
/// ```
public protocol Cancellable {
    /// Stops the activity and frees its resources.
    func cancel()
}
