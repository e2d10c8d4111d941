extension Subscribers {
    /// How a publisher ended: normally, or with an error.
    ///
    /// ```swift
    /// publisher.sink(receiveCompletion: { completion in
    ///     switch completion {
    ///     case .finished: print("done")
    ///     case .failure(let error): print("failed:", error)
    ///     }
    /// }, receiveValue: { _ in })
    /// ```
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped because of `Failure`.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

/// The coding keys of a completion: `success` (a Bool) and, for a failure, `error`.
private enum CompletionCodingKeys: String, CodingKey {
    case success, error
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes `{"success": true}`, or `{"success": false, "error": ...}`.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(Subscribers.Completion<Never>.finished)   // {"success":true}
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CompletionCodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Decodes what `encode(to:)` writes.
    ///
    /// ```swift
    /// let completion = try JSONDecoder().decode(Subscribers.Completion<Never>.self, from: data)
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CompletionCodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}

extension Subscribers.Completion {
    /// The same completion with the failure changed by `transform`.
    @inlinable
    func mapError<NewFailure: Error>(
        _ transform: (Failure) -> NewFailure
    ) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: .finished
        case .failure(let error): .failure(transform(error))
        }
    }
}
