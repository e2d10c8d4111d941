extension Publisher where Output: Encodable {
    /// Encodes every value with `encoder`; an encoding error cancels upstream and fails the
    /// stream.
    ///
    /// ```swift
    /// let bodies = signUps.encode(encoder: JSONEncoder())   // Data
    /// ```
    @inlinable
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers {
    /// A publisher that encodes its upstream's values.
    ///
    /// ```swift
    /// let bodies = Publishers.Encode(upstream: signUps, encoder: JSONEncoder())
    /// ```
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// What the encoder writes.
        public typealias Output = Coder.Output
        /// Any error: the upstream's or an encoding error.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream

        /// The encoder used for every value.
        public let encoder: Coder

        /// Makes a publisher that encodes `upstream`'s values with `encoder`.
        ///
        /// ```swift
        /// let bodies = Publishers.Encode(upstream: signUps, encoder: JSONEncoder())
        /// ```
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber` through the encoder.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let encoder = self.encoder
            upstream.receive(
                subscriber:
                    StageSubscription<Upstream.Output, Upstream.Failure, S>(
                        kind: .encode, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                return .emit(try encoder.encode(input))
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}
