/// A small error type for tests: equatable, so completions compare directly.
enum TestError: Error, Equatable {
    case oops
    case other
}
