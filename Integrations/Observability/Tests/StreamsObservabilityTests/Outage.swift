import Streams

/// A retryable failure whose description holds no secret: it opts in to being shown as itself.
struct Outage: CategorizedError, RedactingError, CustomStringConvertible {
    var category: ErrorCategory { .retryable }
    var description: String { "outage" }
}
