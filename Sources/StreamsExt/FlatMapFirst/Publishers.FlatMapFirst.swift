import Streams

extension Publishers {
    /// A publisher that maps a value to a publisher and passes on its values, ignoring the
    /// values that arrive while it runs. See `flatMapFirst(_:)`.
    ///
    /// ```swift
    /// let logins = Publishers.FlatMapFirst(upstream: loginTaps) { _ in api.logIn() }
    /// ```
    public struct FlatMapFirst<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' values.
        public typealias Output = NewPublisher.Output
        /// The shared failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values start inner publishers.
        public let upstream: Upstream
        /// Makes an inner publisher from a value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Makes a publisher that runs one inner publisher at a time, ignoring values meanwhile.
        ///
        /// ```swift
        /// let refreshes = Publishers.FlatMapFirst(upstream: pulls) { _ in reload() }
        /// ```
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Hands `subscriber` its subscription, then subscribes to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = FlatMapFirstSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.receive(subscriber: SideSubscriber(parent: subscription))
        }
    }
}
