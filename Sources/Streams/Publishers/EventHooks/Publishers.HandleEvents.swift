extension Publisher {
    /// Runs closures when events pass through, before they are forwarded: for logging,
    /// metrics and debugging.
    ///
    /// `receiveRequest` sees both requests made through the subscription and the non-zero demand
    /// the downstream returns from receiving a value. As in Combine, the hooks also run for events
    /// that are not passed on: a second subscription (then cancelled), a request or cancel that
    /// arrives before the upstream subscription.
    ///
    /// ```swift
    /// let logged = request.handleEvents(
    ///     receiveSubscription: { _ in print("started") },
    ///     receiveOutput: { print("got", $0) },
    ///     receiveCompletion: { print("ended", $0) },
    ///     receiveCancel: { print("cancelled") })
    /// ```
    @inlinable
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// A publisher that runs closures as events pass through.
    ///
    /// ```swift
    /// let logged = Publishers.HandleEvents(upstream: request, receiveOutput: { print($0) })
    /// ```
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream
        /// Runs when the subscription arrives.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Runs for every value.
        public var receiveOutput: ((Output) -> Void)?
        /// Runs for the completion.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        /// Runs when the downstream cancels.
        public var receiveCancel: (() -> Void)?
        /// Runs for every request (`.none` included) and for the non-zero demand the downstream
        /// returns from receiving a value.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Makes a publisher that runs the given closures as `upstream`'s events pass.
        ///
        /// ```swift
        /// let logged = Publishers.HandleEvents(upstream: request, receiveCancel: { print("cancelled") })
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber` behind the hooks.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // The subscription keeps the closures only, not `self`: not the upstream.
            let hooks = EventHooks(
                receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
            upstream.receive(subscriber: Inner(name: "HandleEvents", hooks: hooks, downstream: subscriber))
        }
    }
}
