/// The namespace of subscriber types and of the values subscribers exchange with publishers
/// (``Demand``, ``Completion``).
///
/// ```swift
/// let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { print($0) })
/// ```
public enum Subscribers {}
