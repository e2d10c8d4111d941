extension Publisher {
    /// Drops a value when the throwing `predicate(previous, value)` returns `true`; a thrown
    /// error cancels upstream and fails the stream.
    ///
    /// ```swift
    /// let distinct = records.tryRemoveDuplicates { try $0.id == $1.validatedID() }
    /// ```
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that drops duplicates as a throwing predicate defines them.
    ///
    /// ```swift
    /// let distinct = Publishers.TryRemoveDuplicates(upstream: records) { try same($0, $1) }
    /// ```
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or a thrown one.
        public typealias Failure = any Error

        /// The publisher whose duplicates are dropped.
        public let upstream: Upstream

        /// Returns `true` when the second value duplicates the first; a thrown error ends the
        /// stream.
        public let predicate: (Output, Output) throws -> Bool

        /// Makes a publisher that drops `upstream`'s duplicates as `predicate` defines them.
        ///
        /// ```swift
        /// let distinct = Publishers.TryRemoveDuplicates(upstream: records, predicate: { try same($0, $1) })
        /// ```
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber`; each subscription starts with no previous value.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            var previous: Output?
            let isDuplicate = predicate
            upstream.receive(
                subscriber:
                    StageSubscription<Output, Upstream.Failure, S>(
                        kind: .tryRemoveDuplicates, downstream: subscriber, mapFailure: { $0 }, state: { previous as Any },
                        step: { input in
                            defer { previous = input }
                            do {
                                if let previous, try isDuplicate(previous, input) { return .drop }
                                return .emit(input)
                            } catch {
                                return .fail(error)
                            }
                        }))
        }
    }
}
