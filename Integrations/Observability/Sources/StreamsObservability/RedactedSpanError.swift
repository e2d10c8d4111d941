import Streams

/// What a span is told of an error: its redacted description, so that a tracer that records
/// `String(describing: error)` as `exception.message` (as swift-otel does) shows no secret the
/// error holds. The real type goes with it as the `exception.type` attribute.
struct RedactedSpanError: Error, CustomStringConvertible {
    /// The error's `redactedDescription`.
    let description: String

    init(_ error: any Error) {
        description = error.redactedDescription
    }
}
