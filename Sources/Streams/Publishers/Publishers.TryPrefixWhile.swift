extension Publisher {
    /// Passes on values while the throwing `predicate` returns `true`; at the first `false`,
    /// cancels upstream and finishes; a thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let header = lines.tryPrefix { try $0.isHeader() }
    /// ```
    @inlinable
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that passes on its upstream's leading values while a throwing predicate
    /// holds.
    ///
    /// ```swift
    /// let header = Publishers.TryPrefixWhile(upstream: lines) { try $0.isHeader() }
    /// ```
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose leading values are passed on.
        public let upstream: Upstream

        /// Returns `true` for the values to pass on; `false` finishes and a thrown error fails
        /// the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Makes a publisher of `upstream`'s leading values that satisfy `predicate`.
        ///
        /// ```swift
        /// let header = Publishers.TryPrefixWhile(upstream: lines, predicate: { try $0.isHeader() })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let predicate = self.predicate
            upstream.receive(
                subscriber: StageSubscription<Output, Upstream.Failure, S>(
                    kind: .tryPrefixWhile, downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        do {
                            return try predicate(input) ? .emit(input) : .finish
                        } catch {
                            return .fail(error)
                        }
                    }))
        }
    }
}
