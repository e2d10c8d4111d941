import Streams

/// Collects the errors `@Resilient` properties recover from while a decoder runs, so that they
/// can be logged instead of vanishing.
///
/// Put one in the decoder's `userInfo` under ``Swift/CodingUserInfoKey/resilientDecodingErrorReporter``,
/// decode, then take the errors with ``flushReportedErrors()``. It may be shared by decoders on
/// several threads. (`JSONDecoder.decode(_:from:reportResilientDecodingErrors:)` does all this
/// for you.)
///
/// ```swift
/// let reporter = ResilientDecodingErrorReporter()
/// let decoder = JSONDecoder()
/// decoder.userInfo[.resilientDecodingErrorReporter] = reporter
/// let feed = try decoder.decode(Feed.self, from: data)
/// if let digest = reporter.flushReportedErrors() { logger.warning("\(digest.debugDescription)") }
/// ```
public final class ResilientDecodingErrorReporter: Sendable {
    /// What was reported since the last flush.
    private let state = LockedState<[ErrorDigest.Entry]>([])

    /// Makes a reporter with nothing reported.
    ///
    /// ```swift
    /// decoder.userInfo[.resilientDecodingErrorReporter] = ResilientDecodingErrorReporter()
    /// ```
    public init() {}

    /// Records `error`, recovered from at `codingPath`.
    func report(_ error: any Error, at codingPath: [any CodingKey]) {
        let entry = ErrorDigest.Entry(path: codingPath.map(DigestPath.name(of:)), error: error)
        state.withLock { $0.append(entry) }
    }

    /// Hands over everything reported since the last flush, and forgets it; `nil` when nothing
    /// was reported. A digest may hold only ``UnknownNovelValueError``s, in which case its
    /// ``ErrorDigest/errors`` is empty.
    ///
    /// ```swift
    /// if let digest = reporter.flushReportedErrors() { print(digest.debugDescription) }
    /// ```
    public func flushReportedErrors() -> ErrorDigest? {
        let flushed = state.withLock { entries in
            defer { entries = [] }
            return entries
        }
        return flushed.isEmpty ? nil : ErrorDigest(entries: flushed)
    }
}
