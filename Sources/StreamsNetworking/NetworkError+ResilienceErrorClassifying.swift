import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams

/// A transport failure is classified as its URL error is: `URLError(.timedOut)` wrapped in a
/// ``NetworkError`` is a timeout for the retry budget's cost and for the rule that a call that is
/// not safe to repeat is never sent again after a timeout (`resilient(_:scheduler:isSafeToRepeat:)`,
/// `ResiliencePipeline.execute(isSafeToRepeat:_:)`), even when the error was made without its
/// request.
extension NetworkError: ResilienceErrorClassifying {
    @usableFromInline
    package var resilienceKind: ResilienceErrorKind {
        if case .transport(let error, _) = self { ResilienceErrorKind.of(error) } else { .other }
    }

    @usableFromInline
    package var mayHaveReachedServer: Bool {
        if case .transport(let error, _) = self { !error.failedBeforeSending } else { true }
    }
}
