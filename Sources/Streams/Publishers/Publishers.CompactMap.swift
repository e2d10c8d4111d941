extension Publisher {
    /// Transforms every value and passes on the non-`nil` results.
    ///
    /// Each `nil` asks upstream for one more value, so demand is never lost.
    ///
    /// ```swift
    /// let numbers = ["1", "two", "3"].publisher.compactMap { Int($0) }   // 1, 3
    /// ```
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms values and passes on the non-`nil` results.
    ///
    /// ```swift
    /// let numbers = Publishers.CompactMap(upstream: texts) { Int($0) }
    /// ```
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The transformation; `nil` drops the value.
        public let transform: (Upstream.Output) -> Output?

        /// Makes a publisher that passes on `upstream`'s values transformed, dropping `nil`s.
        ///
        /// ```swift
        /// let numbers = Publishers.CompactMap(upstream: texts, transform: { Int($0) })
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: CompactMapSubscriber(downstream: subscriber, transform: transform))
        }

        /// Fuses two compact-maps into one stage.
        ///
        /// ```swift
        /// let positive = texts.compactMap { Int($0) }.compactMap { $0 > 0 ? $0 : nil }
        /// ```
        @inlinable
        public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
            let first = self.transform
            return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
        }
    }
}

/// CompactMap's subscriber: stateless, so the upstream subscription goes straight downstream. A
/// top-level type, like ``MapSubscriber``, so that long chains still specialise.
@usableFromInline
struct CompactMapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let transform: (Input) -> Downstream.Input?
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let output = transform(input) else { return .max(1) }
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "CompactMap" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

extension Publishers.CompactMap {
    /// Fuses a compact-map and a map into one `CompactMap` on the same upstream; `transform`
    /// runs only for non-`nil` results.
    ///
    /// ```swift
    /// let doubled = texts.compactMap { Int($0) }.map { $0 * 2 }   // one Publishers.CompactMap
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}
