import Synchronization

/// An operation that fails with `error` the first `failures` times it is called, then returns its
/// call count.
final class FlakyOperation: Sendable {
    private let failures: Int
    private let error: any Error & Sendable
    private let calls = Mutex(0)

    init(failing failures: Int, with error: any Error & Sendable = Outage()) {
        self.failures = failures
        self.error = error
    }

    /// How many times it was called.
    var callCount: Int { calls.withLock { $0 } }

    func callAsFunction() throws -> Int {
        let call = calls.withLock { count in
            count += 1
            return count
        }
        if call <= failures { throw error }
        return call
    }
}
