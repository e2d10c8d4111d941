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

/// The one lock every Streams type guards its state with.
///
/// In ordinary builds it is the toolchain's `Synchronization.Mutex`: a futex on Linux, an
/// unfair lock on Apple platforms. ThreadSanitizer cannot see a futex, so under it every access
/// the mutex guards looks unguarded; built with `-Xswiftc -DSTREAMS_TSAN` (as `.ci/run` does for
/// its sanitizer pass) the lock is a pthread mutex instead, which ThreadSanitizer intercepts.
/// Nothing else changes between the two.
///
/// State lives in the owner's stored properties, guarded by convention: `withLockUnchecked`
/// promises what the compiler cannot check, that every property read or written in `body` is
/// only ever touched under this lock. Never call user code or a downstream subscriber inside
/// `body`.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
    #if STREAMS_TSAN
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @inlinable
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    @inlinable
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and returns its result.
    @inlinable
    package func withLockUnchecked<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
    #else
    @usableFromInline
    let mutex = Mutex<Void>(())

    @inlinable
    package init() {}

    /// Runs `body` with the lock held and returns its result.
    @inlinable
    package func withLockUnchecked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try mutex.withLock { _ in
            nonisolated(unsafe) let result = try body()
            return result
        }
    }
    #endif
}
