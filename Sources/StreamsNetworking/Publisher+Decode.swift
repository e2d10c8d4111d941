import Foundation
import Streams
import StreamsDecoding

extension NetworkError {
    /// `error`, thrown by a decoder, as a ``NetworkError/decoding(_:)``.
    static func decoding(from error: any Error) -> NetworkError {
        if let error = error as? DecodingError { return .decoding(error) }
        return .decoding(.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)", underlyingError: error)))
    }
}

extension Publisher where Output == Data, Failure == NetworkError {
    /// Decodes the body; a decoding failure becomes ``NetworkError/decoding(_:)``, so the whole
    /// pipeline keeps one error type.
    ///
    /// ```swift
    /// let availability = body.decode(type: Availability.self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> AnyPublisher<Item, NetworkError> where Coder.Input == Data {
        flatMap(maxPublishers: .max(1)) { data in
            Result { try decoder.decode(Item.self, from: data) }.mapError(NetworkError.decoding(from:)).publisher
        }
        .eraseToAnyPublisher()
    }

    /// Decodes the body with `@Resilient` properties recovering what they can, and hands what
    /// they recovered from to `report` (see StreamsDecoding); a value that cannot be decoded
    /// at all becomes ``NetworkError/decoding(_:)``, so the pipeline keeps one error type.
    ///
    /// ```swift
    /// let feed = body.decode(type: Feed.self, decoder: JSONDecoder()) { digest in
    ///     logger.warning("feed decoded with errors:\n\(digest.debugDescription)")
    /// }
    /// ```
    public func decode<Item: Decodable>(
        type: Item.Type,
        decoder: JSONDecoder,
        reportResilientDecodingErrors report: @escaping (ErrorDigest) -> Void
    ) -> AnyPublisher<Item, NetworkError> {
        flatMap(maxPublishers: .max(1)) { data in
            Result { try NetworkError.decodeResilient(Item.self, from: data, decoder: decoder, report: report) }
                .mapError(NetworkError.decoding(from:))
                .publisher
        }
        .eraseToAnyPublisher()
    }
}

extension Publisher where Output == NetworkResponse<Data>, Failure == NetworkError {
    /// Decodes the body and keeps the HTTP response beside the value; a decoding failure
    /// becomes ``NetworkError/decoding(_:)``.
    ///
    /// ```swift
    /// let page = responses.decode(type: [Repository].self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> AnyPublisher<NetworkResponse<Item>, NetworkError> where Coder.Input == Data {
        flatMap(maxPublishers: .max(1)) { exchange in
            Result { try exchange.map { try decoder.decode(Item.self, from: $0) } }
                .mapError(NetworkError.decoding(from:))
                .publisher
        }
        .eraseToAnyPublisher()
    }

    /// Decodes the body resiliently (see `decode(type:decoder:reportResilientDecodingErrors:)`
    /// on a publisher of `Data`) and keeps the HTTP response beside the value.
    ///
    /// ```swift
    /// let page = responses.decode(type: Feed.self, decoder: JSONDecoder()) { log($0.debugDescription) }
    /// ```
    public func decode<Item: Decodable>(
        type: Item.Type,
        decoder: JSONDecoder,
        reportResilientDecodingErrors report: @escaping (ErrorDigest) -> Void
    ) -> AnyPublisher<NetworkResponse<Item>, NetworkError> {
        flatMap(maxPublishers: .max(1)) { exchange in
            Result {
                try exchange.map { try NetworkError.decodeResilient(Item.self, from: $0, decoder: decoder, report: report) }
            }
            .mapError(NetworkError.decoding(from:))
            .publisher
        }
        .eraseToAnyPublisher()
    }
}

extension NetworkError {
    /// Decodes `data`, reporting what `@Resilient` properties recovered from.
    static func decodeResilient<Item: Decodable>(
        _ type: Item.Type, from data: Data, decoder: JSONDecoder, report: (ErrorDigest) -> Void
    ) throws -> Item {
        let (value, digest) = try decoder.decode(Item.self, from: data, reportResilientDecodingErrors: true)
        if let digest, !digest.errors.isEmpty { report(digest) }
        return value
    }
}
