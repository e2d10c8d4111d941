extension Publisher {
    /// Transforms every value with a throwing closure and passes on the non-`nil` results; a
    /// thrown error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let users = rows.tryCompactMap { row in try row.isDeleted ? nil : User(row) }
    /// ```
    @inlinable
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms values with a throwing closure, dropping `nil` results.
    ///
    /// ```swift
    /// let users = Publishers.TryCompactMap(upstream: rows) { try User(row: $0) }
    /// ```
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The transformation; `nil` drops the value and a thrown error ends the stream.
        public let transform: (Upstream.Output) throws -> Output?

        /// Makes a publisher that transforms `upstream`'s values, dropping `nil` results.
        ///
        /// ```swift
        /// let users = Publishers.TryCompactMap(upstream: rows, transform: { try User(row: $0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
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
                        kind: .tryCompactMap, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                return try transform(input).map { .emit($0) } ?? .drop
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a throwing compact-map and a compact-map into one `TryCompactMap` on the same
    /// upstream; `transform` runs only for non-`nil` results and may throw.
    ///
    /// ```swift
    /// let positive = texts.tryCompactMap { try parse($0) }.compactMap { $0 > 0 ? $0 : nil }
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}
