extension Publisher {
    /// Passes on the values for which `isIncluded` returns `true`; a thrown error cancels
    /// upstream and fails the stream.
    ///
    /// ```swift
    /// let valid = names.tryFilter { name in
    ///     guard !name.isEmpty else { throw FormError.emptyName }
    ///     return name.count >= 4
    /// }
    /// ```
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that passes on values satisfying a throwing predicate.
    ///
    /// ```swift
    /// let valid = Publishers.TryFilter(upstream: names) { try validate($0) }
    /// ```
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose values are filtered.
        public let upstream: Upstream

        /// Returns `true` for the values to pass on; a thrown error ends the stream.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Makes a publisher that passes on `upstream`'s values that satisfy `isIncluded`.
        ///
        /// ```swift
        /// let valid = Publishers.TryFilter(upstream: names, isIncluded: { try validate($0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let isIncluded = self.isIncluded
            upstream.receive(
                subscriber:
                    StageSubscription<Upstream.Output, Upstream.Failure, S>(
                        kind: .tryFilter, downstream: subscriber, mapFailure: { $0 },
                        step: { input in
                            do {
                                return try isIncluded(input) ? .emit(input) : .drop
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}

extension Publishers.TryFilter {
    /// Fuses a throwing filter and a filter into one `TryFilter`; `isIncluded` runs only for
    /// values the first predicate kept.
    ///
    /// ```swift
    /// let small = numbers.tryFilter { try check($0) }.filter { $0 < 10 }   // one Publishers.TryFilter
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two throwing filters into one `TryFilter`; `isIncluded` runs only for values the
    /// first predicate kept.
    ///
    /// ```swift
    /// let valid = numbers.tryFilter { try check($0) }.tryFilter { try verify($0) }
    /// ```
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) ? try isIncluded($0) : false }
    }
}
