import Streams

extension Publisher {
    /// Turns every value into a publisher and passes on their values one publisher after
    /// another, in order: the next inner publisher is subscribed only once the previous one has
    /// finished. `flatMap(maxPublishers: .max(1), transform)`, with exactly its behaviour.
    ///
    /// - Demand, as Combine's `flatMap(maxPublishers: .max(1))`: this publisher is asked for one
    ///   value, and for the next only when that value's inner publisher has finished. Nothing is
    ///   buffered: a publisher that sends without demand (a `PassthroughSubject`) drops what it
    ///   sends while an inner publisher runs; a cold one (a sequence) is simply read on demand.
    ///   The downstream's demand goes to the running inner publisher, and what is left of it to
    ///   the next.
    /// - It finishes once this publisher and the running inner one have finished; any failure
    ///   fails it and cancels the rest.
    ///
    /// ```
    /// ids:     -1-2-----------|
    /// inner 1:  -a--b-|
    /// inner 2:        -c-d-|
    /// result:  --a--b--c-d-|
    /// ```
    ///
    /// ```swift
    /// let uploads = [file1, file2, file3].publisher.concatMap { upload($0) }   // one at a time
    /// ```
    @inlinable
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.ConcatMap<P, Self> where P.Failure == Failure {
        Publishers.ConcatMap(upstream: self, transform: transform)
    }
}
