extension Publisher {
    /// Decodes every value with `decoder` into an `Item`; a decoding error cancels upstream and
    /// fails the stream.
    ///
    /// ```swift
    /// struct Availability: Decodable { let isAvailable: Bool }
    /// let answers = responses.map(\.data).decode(type: Availability.self, decoder: JSONDecoder())
    /// ```
    @inlinable
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that decodes its upstream's values.
    ///
    /// ```swift
    /// let users = Publishers.Decode<_, [User], JSONDecoder>(upstream: bodies, decoder: JSONDecoder())
    /// ```
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's or a decoding error.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream

        /// The decoder used for every value.
        public let decoder: Coder

        /// Makes a publisher that decodes `upstream`'s values with `decoder`.
        ///
        /// ```swift
        /// let users = Publishers.Decode<_, [User], JSONDecoder>(upstream: bodies, decoder: JSONDecoder())
        /// ```
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber` through the decoder.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let decoder = self.decoder
            upstream.receive(
                subscriber:
                    StageSubscription<Upstream.Output, Upstream.Failure, S>(
                        kind: .decode, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                return .emit(try decoder.decode(Output.self, from: input))
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}
