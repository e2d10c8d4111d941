import Streams

/// A value guarded by Streams' `LockedState`, for this package's tests.
///
/// Tests share state between threads through this rather than `Synchronization.Mutex`:
/// ThreadSanitizer cannot see that mutex (a futex on Linux), so a contended one looks like a data
/// race, while `LockedState` is a pthread mutex in sanitizer builds.
///
/// ```swift
/// let count = Locked(0)
/// DispatchQueue.concurrentPerform(iterations: 4) { _ in count.withLock { $0 += 1 } }
/// ```
package final class Locked<Value>: Sendable {
    private let state: LockedState<Value>

    /// Guards `value`.
    package init(_ value: Value) { state = LockedState(value) }

    /// Runs `body` on the value with the lock held.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try state.withLock(body)
    }
}
