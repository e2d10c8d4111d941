import Streams

extension Publishers {
    /// The publisher `concatMap(_:)` returns, under the name CombineExt gives it: the inner
    /// publishers run one after another, in order. It subscribes its subscribers to
    /// `upstream.flatMap(maxPublishers: .max(1), transform)`, and has exactly that operator's
    /// demand, completion and cancellation rules.
    ///
    /// ```swift
    /// let uploads = Publishers.ConcatMap(upstream: files.publisher) { upload($0) }   // one at a time
    /// ```
    public struct ConcatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// Turns a value of the upstream into the publisher whose values follow.
        public typealias Transform = (Upstream.Output) -> NewPublisher
        /// The inner publishers' values.
        public typealias Output = NewPublisher.Output
        /// The upstream's failure, which the inner publishers share.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are turned into inner publishers.
        public let upstream: Upstream
        /// Makes the inner publisher for a value.
        public let transform: Transform

        /// Makes a publisher that runs `transform`'s publishers one after another.
        ///
        /// ```swift
        /// let pages = Publishers.ConcatMap(upstream: pageNumbers) { fetchPage($0) }
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping Transform) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` to the upstream's `flatMap(maxPublishers: .max(1))`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.flatMap(maxPublishers: .max(1), transform).receive(subscriber: subscriber)
        }
    }
}
