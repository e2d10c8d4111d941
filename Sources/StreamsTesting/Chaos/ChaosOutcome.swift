/// What a call hit by `injectOutcome(_:rate:using:when:)` does instead of calling the upstream.
///
/// ```swift
/// let hit: ChaosOutcome<Int, APIError> = .failure(.unavailable)
/// ```
public enum ChaosOutcome<Output, Failure: Error> {
    /// Sends the value and finishes.
    case value(Output)
    /// Fails with the error.
    case failure(Failure)
    /// Never answers (until cancelled), like a server that accepted the connection and hangs.
    case hang
}

extension ChaosOutcome: Sendable where Output: Sendable, Failure: Sendable {}
