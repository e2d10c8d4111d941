extension Publisher {
    /// Transforms every value with `transform`.
    ///
    /// Demand passes straight through: one value in, one value out.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .map { $0 * 10 }
    ///     .sink { print($0) }   // 10, 20, 30
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms every value from its upstream with a closure.
    ///
    /// ```swift
    /// let lengths: Publishers.Map<PassthroughSubject<String, Never>, Int> = subject.map(\.count)
    /// ```
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The transformation applied to every value.
        public let transform: (Upstream.Output) -> Output

        /// Makes a publisher that transforms `upstream`'s values with `transform`.
        ///
        /// ```swift
        /// let doubled = Publishers.Map(upstream: Just(2)) { $0 * 2 }
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through the transformation.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: MapSubscriber(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Fuses two maps into one stage.
    ///
    /// ```swift
    /// let fused = subject.map { $0 + 1 }.map { $0 * 2 }   // one Publishers.Map
    /// ```
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }

    /// Fuses a map and a throwing map into one `TryMap` on the map's upstream.
    ///
    /// ```swift
    /// let parsed: Publishers.TryMap<PassthroughSubject<String, Never>, Int> =
    ///     subject.map { $0.trimmed() }.tryMap { try parse($0) }
    /// ```
    @inlinable
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

/// Map's subscriber: it has no state, so the upstream subscription goes straight downstream and
/// values pass through without a lock. It is a top-level type generic only over what it needs:
/// nested in `Publishers.Map`, its type would repeat the whole upstream chain, and deep chains
/// of such types stop the optimiser from specialising them.
@usableFromInline
struct MapSubscriber<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let transform: (Input) -> Downstream.Input
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input) {
        self.downstream = downstream
        self.transform = transform
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(transform(input))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "Map" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
