import Foundation

/// An operation queue handed to Dispatch: `OperationQueue` is thread-safe, though not marked
/// `Sendable`.
// Unchecked: `OperationQueue` is thread-safe, though not marked Sendable.
package struct UncheckedOperationQueue: @unchecked Sendable {
    package let queue: OperationQueue

    package init(_ queue: OperationQueue) {
        self.queue = queue
    }
}
