import Streams

/// A retryable failure whose description holds a secret, as a `URLError`'s holds its failing URL:
/// nothing this package writes may show it.
struct LeakyError: CategorizedError, CustomStringConvertible {
    static let secret = "token=SECRET-4242"

    var category: ErrorCategory { .retryable }
    var description: String { "GET https://api.example.com/users?\(Self.secret) failed" }
}
