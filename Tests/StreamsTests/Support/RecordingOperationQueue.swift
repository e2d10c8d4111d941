import Foundation
import StreamsTesting

/// An operation queue that records how work is added to it, to see what a scheduler hands it.
// Unchecked: `OperationQueue` is thread-safe though not `Sendable`; the record is behind a lock.
final class RecordingOperationQueue: OperationQueue, @unchecked Sendable {
    /// One call that added work.
    enum Addition {
        /// `addOperation(_:)` with an operation.
        case operation(Operation)
        /// `addOperation(_:)` with a block.
        case block
        /// `addOperations(_:waitUntilFinished:)`.
        case operations([Operation])
    }

    private let record = Locked<[Addition]>([])

    /// The calls that added work, in order.
    var additions: [Addition] { record.withLock { $0 } }

    /// The operations added one by one, in order.
    var addedOperations: [Operation] {
        additions.compactMap { if case .operation(let operation) = $0 { operation } else { nil } }
    }

    override func addOperation(_ op: Operation) {
        record.withLock { $0.append(.operation(op)) }
        super.addOperation(op)
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        record.withLock { $0.append(.block) }
        super.addOperation(block)
    }

    override func addOperations(_ ops: [Operation], waitUntilFinished wait: Bool) {
        record.withLock { $0.append(.operations(ops)) }
        super.addOperations(ops, waitUntilFinished: wait)
    }
}
