import Streams

/// Whether `prefix(while:behavior:)` sends the first value that fails its predicate.
///
/// ```swift
/// [1, 2, 5, 1].publisher.prefix(while: { $0 < 3 }, behavior: .exclusive)   // 1, 2
/// [1, 2, 5, 1].publisher.prefix(while: { $0 < 3 }, behavior: .inclusive)   // 1, 2, 5
/// ```
public enum PrefixWhileBehavior: Sendable, Hashable {
    /// The first value that fails the predicate is sent, then the stream finishes.
    case inclusive
    /// The stream finishes without the first value that fails the predicate, as
    /// `prefix(while:)` does.
    case exclusive
}
