import Streams

extension Publishers {
    /// A publisher that passes on only the values it has not sent before, over the whole stream.
    /// See `removeAllDuplicates()`.
    ///
    /// Each subscription keeps its own record of the values seen, so a second subscription (a
    /// retry, a second subscriber) starts afresh. CombineExt returns a `Publishers.Filter` whose
    /// record is made once per operator and shared by all its subscriptions.
    ///
    /// ```swift
    /// let firstSightings = Publishers.RemoveAllDuplicates(upstream: names) { $0 == $1 }
    /// ```
    public struct RemoveAllDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose repeated values are removed.
        public let upstream: Upstream
        /// Makes, for one subscription, the check that says whether a value is new (and records it).
        @usableFromInline
        let makeIsNew: () -> (Upstream.Output) -> Bool

        /// Makes a publisher that removes the values of `upstream` for which `areDuplicates`
        /// holds against a value sent before (the earlier value first).
        ///
        /// ```swift
        /// let firstSightings = Publishers.RemoveAllDuplicates(upstream: names) { $0 == $1 }
        /// ```
        @inlinable
        public init(upstream: Upstream, by areDuplicates: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            makeIsNew = {
                var seen: [Upstream.Output] = []
                return { value in
                    if seen.contains(where: { areDuplicates($0, value) }) { return false }
                    seen.append(value)
                    return true
                }
            }
        }

        /// Makes a publisher that removes the values of `upstream` equal to one sent before,
        /// remembering them in a set.
        ///
        /// ```swift
        /// let firstSightings = Publishers.RemoveAllDuplicates(upstream: ids)
        /// ```
        @inlinable
        public init(upstream: Upstream) where Upstream.Output: Hashable {
            self.upstream = upstream
            makeIsNew = {
                var seen: Set<Upstream.Output> = []
                return { seen.insert($0).inserted }
            }
        }

        /// Subscribes `subscriber` to the upstream's values, filtered with a record of its own.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.filter(makeIsNew()).receive(subscriber: subscriber)
        }
    }
}
