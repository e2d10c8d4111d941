extension Publisher {
    /// Transforms every value with a closure that may throw; a thrown error cancels upstream and
    /// fails the stream with that error.
    ///
    /// ```swift
    /// let numbers = ["1", "2", "x"].publisher
    ///     .tryMap { text -> Int in
    ///         guard let number = Int(text) else { throw ParseError.notANumber(text) }
    ///         return number
    ///     }
    /// // 1, 2, then failure(ParseError.notANumber("x"))
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms every value with a throwing closure.
    ///
    /// ```swift
    /// let parsed = Publishers.TryMap(upstream: Just("42")) { try Int($0) ?? { throw ParseError() }() }
    /// ```
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The transformation; a thrown error ends the stream.
        public let transform: (Upstream.Output) throws -> Output

        /// Makes a publisher that transforms `upstream`'s values with `transform`.
        ///
        /// ```swift
        /// let lengths = Publishers.TryMap(upstream: names) { $0.count }
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let transform = self.transform
            upstream.receive(
                subscriber:
                    StageSubscription<Upstream.Output, Upstream.Failure, S>(
                        kind: .tryMap, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                return .emit(try transform(input))
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}

extension Publishers.TryMap {
    /// Fuses a throwing map and a map into one `TryMap` on the same upstream.
    ///
    /// ```swift
    /// let doubled = texts.tryMap { try parse($0) }.map { $0 * 2 }   // one Publishers.TryMap
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two throwing maps into one `TryMap` on the same upstream.
    ///
    /// ```swift
    /// let checked = texts.tryMap { try parse($0) }.tryMap { try validate($0) }
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}
