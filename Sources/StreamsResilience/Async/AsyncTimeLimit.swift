/// Runs an operation in a child task against a sleep on a clock: the per-attempt timeout and the
/// total timeout (deadline) of the `async` face, one engine for both, as `TimeLimitKind` is for
/// the publishers.
///
/// When the sleep ends first, the operation's task is cancelled and awaited (an operation that
/// ignores cancellation holds the call until it returns; its outcome is then discarded), and
/// `expired()` is thrown. When the operation ends first, the sleep is cancelled and the
/// operation's outcome is returned. When the caller is cancelled, both are, and the operation's
/// outcome (usually a `CancellationError`) is returned.
enum AsyncTimeLimit {
    /// What the first child to end brought.
    enum Outcome<Value: Sendable>: Sendable {
        case finished(Result<Value, any Error>)
        case expired
        case sleepCancelled
    }

    static func run<Value: Sendable, C: Clock>(
        _ limit: Duration, clock: C, expired: () -> any Error, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value where C.Duration == Duration {
        let result: Result<Value, any Error> = await withTaskGroup(of: Outcome<Value>.self) { group in
            group.addTask {
                do { return .finished(.success(try await operation())) } catch { return .finished(.failure(error)) }
            }
            group.addTask {
                do {
                    try await clock.sleep(for: limit)
                    return .expired
                } catch {
                    return .sleepCancelled
                }
            }
            while let outcome = await group.next() {
                switch outcome {
                case .finished(let result):
                    group.cancelAll()
                    return result
                case .expired:
                    group.cancelAll()
                    return .failure(expired())
                case .sleepCancelled:
                    continue  // the caller was cancelled: the operation's outcome follows
                }
            }
            preconditionFailure("AsyncTimeLimit's operation task ended without an outcome")
        }
        return try result.get()
    }
}
