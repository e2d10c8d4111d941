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
