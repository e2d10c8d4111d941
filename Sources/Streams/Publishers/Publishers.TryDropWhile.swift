extension Publisher {
    /// Drops values while the throwing `predicate` returns `true`, then passes on every value
    /// from the first one for which it returns `false`; a thrown error cancels upstream and fails
    /// the stream.
    ///
    /// ```swift
    /// let payload = lines.tryDrop { try $0.isHeader() }
    /// ```
    @inlinable
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that drops its upstream's leading values while a throwing predicate holds.
    ///
    /// ```swift
    /// let payload = Publishers.TryDropWhile(upstream: lines) { try $0.isHeader() }
    /// ```
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose leading values are dropped.
        public let upstream: Upstream

        /// Returns `true` for the leading values to drop; a thrown error ends the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Makes a publisher that drops `upstream`'s leading values while `predicate` holds.
        ///
        /// ```swift
        /// let payload = Publishers.TryDropWhile(upstream: lines, predicate: { try $0.isHeader() })
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
            var dropping = true
            upstream.receive(
                subscriber: StageSubscription<Output, Upstream.Failure, S>(
                    kind: .tryDropWhile, downstream: subscriber, mapFailure: { $0 },
                    step: { input in
                        if dropping {
                            do {
                                guard try !predicate(input) else { return .drop }
                            } catch {
                                return .fail(error)
                            }
                            dropping = false
                        }
                        return .emit(input)
                    }))
        }
    }
}
