/// An error that only carries another, which says what went wrong: `error.type` names the error
/// it carries, as OpenTelemetry's semantic conventions allow for a wrapper that does not help
/// classify the failure.
protocol WrappingError: Error {
    /// The error carried.
    var wrapped: any Error { get }
}
