import Foundation

extension JSONDecoder {
    /// Decodes a `T` and, with `reportResilientDecodingErrors`, also returns what its
    /// `@Resilient` properties recovered from (`nil` when nothing was).
    ///
    /// The decoder itself is not changed: the errors are collected by a decoder with the same
    /// settings and a fresh ``ResilientDecodingErrorReporter`` in its `userInfo`, so this is safe
    /// to call on a decoder shared between threads.
    ///
    /// ```swift
    /// let (feed, digest) = try JSONDecoder().decode(Feed.self, from: data, reportResilientDecodingErrors: true)
    /// if let digest { logger.warning("\(digest.debugDescription)") }
    /// ```
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, reportResilientDecodingErrors: Bool
    ) throws -> (T, ErrorDigest?) {
        guard reportResilientDecodingErrors else { return (try decode(T.self, from: data), nil) }
        let reporter = ResilientDecodingErrorReporter()
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.allowsJSON5 = allowsJSON5
        decoder.assumesTopLevelDictionary = assumesTopLevelDictionary
        decoder.userInfo = userInfo
        decoder.userInfo[.resilientDecodingErrorReporter] = reporter
        let value = try decoder.decode(T.self, from: data)
        return (value, reporter.flushReportedErrors())
    }
}
