import Foundation

extension Publisher {
    /// Stops in the debugger (raises `SIGTRAP`) when one of the closures returns `true` for an
    /// event; otherwise passes everything on unchanged. Without a debugger attached, `SIGTRAP`
    /// ends the process.
    ///
    /// ```swift
    /// let watched = prices.breakpoint(receiveOutput: { $0 < 0 })
    /// ```
    @inlinable
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Stops in the debugger (raises `SIGTRAP`) if upstream fails.
    ///
    /// ```swift
    /// let watched = request.breakpointOnError()
    /// ```
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { true } else { false }
        })
    }
}

extension Publishers {
    /// A publisher that stops in the debugger when a condition on an event holds.
    ///
    /// ```swift
    /// let watched = Publishers.Breakpoint(upstream: prices, receiveOutput: { $0 < 0 })
    /// ```
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher watched.
        public let upstream: Upstream
        /// Stops when it returns `true` for the subscription.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// Stops when it returns `true` for a value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// Stops when it returns `true` for the completion.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Makes a publisher that stops in the debugger when one of the closures returns `true`.
        ///
        /// ```swift
        /// let watched = Publishers.Breakpoint(upstream: prices, receiveOutput: { $0 < 0 })
        /// ```
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches `subscriber`.
        ///
        /// As in Combine, the downstream receives the upstream's own subscription, and every
        /// event is tested, whatever came before it.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(
                subscriber: BreakpointSubscriber<Upstream, S>(
                    downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion))
        }
    }
}

/// Breakpoint's subscriber: stateless and pass-through. It keeps the closures, not the
/// `Publishers.Breakpoint` value, so that it does not keep the upstream publisher alive.
@usableFromInline
struct BreakpointSubscriber<Upstream: Publisher, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    @usableFromInline
    let downstream: Downstream
    @usableFromInline
    let receiveSubscription: ((any Subscription) -> Bool)?
    @usableFromInline
    let receiveOutput: ((Upstream.Output) -> Bool)?
    @usableFromInline
    let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(
        downstream: Downstream, receiveSubscription: ((any Subscription) -> Bool)?,
        receiveOutput: ((Upstream.Output) -> Bool)?,
        receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
    ) {
        self.downstream = downstream
        self.receiveSubscription = receiveSubscription
        self.receiveOutput = receiveOutput
        self.receiveCompletion = receiveCompletion
    }

    @inlinable
    func receive(subscription: any Subscription) {
        if receiveSubscription?(subscription) == true { breakIntoDebugger() }
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        if receiveOutput?(input) == true { breakIntoDebugger() }
        return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        if receiveCompletion?(completion) == true { breakIntoDebugger() }
        downstream.receive(completion: completion)
    }

    @usableFromInline
    var description: String { "Breakpoint" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: []) }

    @usableFromInline
    var playgroundDescription: Any { description }
}

/// Raises `SIGTRAP`: a debugger stops here; without one the process ends.
@usableFromInline
func breakIntoDebugger() {
    raise(SIGTRAP)
}
