import Streams

/// How `assign(to:on:ownership:)` holds the object it assigns to.
///
/// ```swift
/// viewModel.$title.assign(to: \.text, on: label, ownership: .weak)
/// ```
public enum ObjectOwnership: Sendable, Hashable {
    /// The subscription keeps the object alive, as `assign(to:on:)` does.
    case strong
    /// The subscription does not keep the object alive; values that arrive once it is gone are
    /// dropped.
    case weak
    /// The subscription does not keep the object alive, and the object must outlive it: a value
    /// that arrives once it is gone stops the program.
    case unowned
}
