extension Publisher {
    /// Passes on only the values for which `isIncluded` returns `true`.
    ///
    /// Each rejected value asks upstream for one more, so demand is never lost.
    ///
    /// ```swift
    /// let evens = (1...6).publisher.filter { $0.isMultiple(of: 2) }   // 2, 4, 6
    /// ```
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers {
    /// A publisher that passes on only the values that satisfy a predicate.
    ///
    /// ```swift
    /// let positives = Publishers.Filter(upstream: numbers) { $0 > 0 }
    /// ```
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream

        /// Returns `true` for the values to pass on.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Makes a publisher that passes on `upstream`'s values that satisfy `isIncluded`.
        ///
        /// ```swift
        /// let positives = Publishers.Filter(upstream: numbers, isIncluded: { $0 > 0 })
        /// ```
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through the predicate.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FilterSubscriber(downstream: subscriber, isIncluded: isIncluded))
        }

        /// Fuses two filters into one stage.
        ///
        /// ```swift
        /// let small = numbers.filter { $0 > 0 }.filter { $0 < 10 }   // one Publishers.Filter
        /// ```
        @inlinable
        public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
            let first = self.isIncluded
            return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
        }
    }
}

/// Filter's subscriber: stateless, so the upstream subscription goes straight downstream. A
/// top-level type, like ``MapSubscriber``, so that long chains still specialise.
@usableFromInline
struct FilterSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let isIncluded: (Downstream.Input) -> Bool
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping (Downstream.Input) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "Filter" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension Publishers.Filter {
    /// Fuses a filter and a throwing filter into one `TryFilter` on the filter's upstream;
    /// `isIncluded` runs only for values the first predicate kept.
    ///
    /// ```swift
    /// let valid = numbers.filter { $0 > 0 }.tryFilter { try verify($0) }   // one Publishers.TryFilter
    /// ```
    @inlinable
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { first($0) ? try isIncluded($0) : false }
    }
}
