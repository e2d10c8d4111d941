import Foundation

/// An operation queue handed to Dispatch: `OperationQueue` is thread-safe, though not marked
/// `Sendable`.
// Unchecked: `OperationQueue` is thread-safe, though not marked Sendable.
struct UncheckedOperationQueue: @unchecked Sendable {
    let queue: OperationQueue

    init(_ queue: OperationQueue) {
        self.queue = queue
    }
}
