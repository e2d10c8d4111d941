import Streams

extension Publisher {
    /// Passes on values while `predicate` returns `true`; at the first value for which it returns
    /// `false`, cancels upstream and finishes, sending that value first when `behavior` is
    /// `.inclusive`.
    ///
    /// `.exclusive` is `prefix(while:)`. `.inclusive` follows the same rules (demand passes
    /// through; the value that ends the stream was asked for like any other). Both return the
    /// type-erased publisher CombineExt declares.
    ///
    /// ```swift
    /// let untilDone = progress.prefix(while: { $0 < 1.0 }, behavior: .inclusive)
    /// // 0.2, 0.7, 1.0, finished
    /// ```
    @inlinable
    public func prefix(
        while predicate: @escaping (Output) -> Bool,
        behavior: PrefixWhileBehavior = .exclusive
    ) -> AnyPublisher<Output, Failure> {
        switch behavior {
        case .exclusive:
            return Publishers.PrefixWhile(upstream: self, predicate: predicate).eraseToAnyPublisher()
        case .inclusive:
            return PrefixWhileInclusive(upstream: self, predicate: predicate).eraseToAnyPublisher()
        }
    }
}

/// `prefix(while:behavior: .inclusive)`: `prefix(while:)`'s stage, whose last step sends the
/// failing value before finishing.
@usableFromInline
struct PrefixWhileInclusive<Upstream: Publisher>: Publisher {
    @usableFromInline
    typealias Output = Upstream.Output
    @usableFromInline
    typealias Failure = Upstream.Failure

    @usableFromInline
    let upstream: Upstream
    @usableFromInline
    let predicate: (Upstream.Output) -> Bool

    @inlinable
    init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
        self.upstream = upstream
        self.predicate = predicate
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let predicate = self.predicate
        upstream.receive(
            subscriber: StageSubscription<Output, Failure, S>(
                kind: .prefixWhile, downstream: subscriber, mapFailure: { $0 },
                step: { input in predicate(input) ? .emit(input) : .emitAndFinish(input) }))
    }
}
