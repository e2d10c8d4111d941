import Streams

extension Publishers {
    /// A publisher that runs a closure for every subscriber, which sends values and a completion
    /// through a ``Subscriber`` handle. See `AnyPublisher.create(_:)`.
    ///
    /// ```swift
    /// let ticks = Publishers.Create<Int, Never> { subscriber in
    ///     let timer = startTimer { subscriber.send($0) }
    ///     return AnyCancellable { timer.stop() }
    /// }
    /// ```
    public struct Create<Output, Failure: Error>: Publisher {
        /// Runs for every subscriber: sends through the handle, returns what cancels its work.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        /// The closure run for every subscriber.
        public let factory: SubscriberHandler

        /// Makes a publisher that runs `factory` for every subscriber.
        ///
        /// ```swift
        /// let once = Publishers.Create<Int, Never> { subscriber in
        ///     subscriber.send(1)
        ///     subscriber.send(completion: .finished)
        ///     return AnyCancellable {}
        /// }
        /// ```
        @inlinable
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        /// Hands `subscriber` its subscription, then runs the factory with a handle to it.
        @inlinable
        public func receive<S: Streams.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = CreateSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.attach(
                factory(
                    Subscriber(
                        onValue: { subscription.send($0) },
                        onCompletion: { subscription.send(completion: $0) })))
        }

        /// What the factory sends through: a value, or the completion. It may be kept and used
        /// from any thread: it only reaches the subscription, which guards its state with a lock.
        ///
        /// ```swift
        /// subscriber.send(42)
        /// subscriber.send(completion: .finished)
        /// ```
        // Unchecked: its closures only forward to the subscription, whose state is behind its
        // lock, so the handle may be sent from any thread (as `create` promises).
        public struct Subscriber: @unchecked Sendable {
            @usableFromInline
            let onValue: (Output) -> Void
            @usableFromInline
            let onCompletion: (Subscribers.Completion<Failure>) -> Void

            @inlinable
            init(onValue: @escaping (Output) -> Void, onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void) {
                self.onValue = onValue
                self.onCompletion = onCompletion
            }

            /// Sends `input` downstream, or keeps it until there is demand for it.
            ///
            /// ```swift
            /// subscriber.send(1)
            /// ```
            @inlinable
            public func send(_ input: Output) {
                onValue(input)
            }

            /// Sends `completion` downstream: after the kept values, before the downstream's
            /// first request; after those its demand covers, the others dropped, once it has
            /// requested.
            ///
            /// ```swift
            /// subscriber.send(completion: .failure(error))
            /// ```
            @inlinable
            public func send(completion: Subscribers.Completion<Failure>) {
                onCompletion(completion)
            }
        }
    }
}
