import Synchronization

extension Mutex where Value == Void {
    /// Runs `body` with the lock held and returns its result.
    ///
    /// Streams' reference types keep their mutable state in ordinary stored properties and guard
    /// them with a `Mutex<Void>`; `Mutex.withLock` requires its result to be `sending`, which a
    /// value read from such a property cannot prove. The caller promises what the compiler cannot
    /// check: every property read or written in `body` is only ever touched under this lock.
    /// Never call user code or a downstream subscriber inside `body`.
    @inlinable
    func withLockUnchecked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { _ in
            nonisolated(unsafe) let result = try body()
            return result
        }
    }
}
