import Foundation
import Streams

extension Publisher where Output == Data {
    /// Decodes every value like `decode(type:decoder:)`, and hands what the `@Resilient`
    /// properties recovered from to `report` (for logging in production), once per value that
    /// had errors. Unknown novel values alone are not reported: they are expected.
    ///
    /// A value that cannot be decoded at all still fails the stream, as with `decode`.
    ///
    /// ```swift
    /// let feed = responses
    ///     .map(\.data)
    ///     .decode(type: Feed.self, decoder: JSONDecoder()) { digest in
    ///         logger.warning("feed decoded with errors:\n\(digest.debugDescription)")
    ///     }
    /// ```
    public func decode<Item: Decodable>(
        type: Item.Type,
        decoder: JSONDecoder,
        reportResilientDecodingErrors report: @escaping (ErrorDigest) -> Void
    ) -> Publishers.TryMap<Self, Item> {
        tryMap { data in
            let (value, digest) = try decoder.decode(Item.self, from: data, reportResilientDecodingErrors: true)
            if let digest, !digest.errors.isEmpty { report(digest) }
            return value
        }
    }
}
