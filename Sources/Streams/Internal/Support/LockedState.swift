#if STREAMS_TSAN
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#else
import Synchronization
#endif

/// A value that can only be reached with its lock held: the one way Streams guards state.
///
/// A subscription keeps its state machine in one of these, stored inline in the subscription
/// object (no allocation of its own), and reaches it only through ``withLock(_:)``. The compiler
/// thus holds the rule "state only under the lock": there is no other path to the value.
///
/// ```swift
/// let state = LockedState(DebounceStateMachine<Downstream>(downstream: downstream))
/// let action = state.withLock { $0.receiveValue(input) }
/// // act on `action` here, with the lock released
/// ```
///
/// Never call user code or a downstream subscriber inside `body`: return what must be done (an
/// action, a subscriber to call, a value to release) and do it after `withLock` returns.
///
/// In ordinary builds the storage is the toolchain's `Synchronization.Mutex`: a futex on Linux,
/// an unfair lock on Apple platforms. ThreadSanitizer cannot see a futex, so under it every
/// access the mutex guards looks unguarded; built with `-Xswiftc -DSTREAMS_TSAN` (as `.ci/run`
/// does for its sanitizer pass) the lock is a pthread mutex that ThreadSanitizer intercepts, and
/// the value lives in a separate allocation beside it. Nothing else changes between the two.
@usableFromInline
// Unchecked: the state is reached only inside `withLock`, under the lock.
package struct LockedState<State>: ~Copyable, @unchecked Sendable {
    #if STREAMS_TSAN
    @usableFromInline
    package let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline
    package let value: UnsafeMutablePointer<State>

    /// Guards `initial` from now on.
    @inlinable
    package init(_ initial: consuming State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
    }

    @inlinable
    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held, and returns its result.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
    #else
    /// The state as the mutex holds it: `Sendable` without checking, since it is reached only
    /// under the lock.
    @usableFromInline
    package struct Guarded: @unchecked Sendable {
        @usableFromInline
        package var state: State

        @inlinable
        package init(_ state: consuming State) {
            self.state = state
        }
    }

    @usableFromInline
    package let mutex: Mutex<Guarded>

    /// Guards `initial` from now on.
    @inlinable
    package init(_ initial: consuming State) {
        // The state is not `Sendable` in general (it holds the downstream subscriber); from here
        // on it is reached only under the lock, which is what makes sharing it safe. Wrapped
        // rather than rebound as `nonisolated(unsafe)`: the rebinding copied the state (a retain
        // and a release of each reference in it) on every subscription.
        mutex = Mutex(Guarded(initial))
    }

    /// Runs `body` on the state with the lock held, and returns its result.
    @inlinable
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try mutex.withLock { (guarded: inout sending Guarded) in
            nonisolated(unsafe) let result = try body(&guarded.state)
            return result
        }
    }
    #endif
}

extension LockedState where State == Void {
    /// A lock that guards no value, for code that must only exclude other threads.
    @inlinable
    package init() { self.init(()) }
}
