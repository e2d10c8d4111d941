extension Publisher {
    /// Turns every value into a publisher and passes on the values of all of them, with at most
    /// `maxPublishers` subscribed at once.
    ///
    /// It finishes when this publisher and every inner publisher have finished; any failure
    /// cancels the rest. `maxPublishers: .max(1)` runs the inner publishers one after another.
    ///
    /// ```swift
    /// let profiles = userIDs.flatMap(maxPublishers: .max(4)) { id in fetchProfile(id) }
    /// ```
    @inlinable
    public func flatMap<Result, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where Result == P.Output, P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// `flatMap` for a publisher that cannot fail, into inner publishers that can.
    ///
    /// ```swift
    /// let answers = names.flatMap { name in check(name) }   // names never fail; check may
    /// ```
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// `flatMap` where neither this publisher nor the inner ones can fail.
    ///
    /// ```swift
    /// let letters = words.flatMap { $0.publisher }
    /// ```
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// `flatMap` into inner publishers that cannot fail.
    ///
    /// ```swift
    /// let cached = requests.flatMap { Just(cache[$0] ?? "") }
    /// ```
    @inlinable
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publishers {
    /// A publisher that maps each value to a publisher and passes on all their values.
    ///
    /// ```swift
    /// let profiles = Publishers.FlatMap(upstream: ids, maxPublishers: .max(4)) { fetchProfile($0) }
    /// ```
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' values.
        public typealias Output = NewPublisher.Output
        /// The shared failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are mapped.
        public let upstream: Upstream
        /// How many inner publishers may be subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// Makes an inner publisher from a value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Makes a publisher that maps `upstream`'s values to publishers and merges them.
        ///
        /// ```swift
        /// let profiles = Publishers.FlatMap(upstream: ids, maxPublishers: .unlimited, transform: fetchProfile)
        /// ```
        @inlinable
        public init(upstream: Upstream, maxPublishers: Subscribers.Demand, transform: @escaping (Upstream.Output) -> NewPublisher)
        {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Attaches `subscriber`: the subscription first, then the upstream.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: SideSubscriber(parent: subscription))
        }
    }
}
