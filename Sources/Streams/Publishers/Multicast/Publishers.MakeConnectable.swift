extension Publisher where Failure == Never {
    /// Shares this publisher among its subscribers, starting it only when `connect()` is called.
    ///
    /// ```swift
    /// let ticks = source.makeConnectable()
    /// let first = ticks.sink { print("first", $0) }
    /// let second = ticks.sink { print("second", $0) }
    /// let connection = ticks.connect()   // both see every value from now on
    /// ```
    @inlinable
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// A connectable publisher that shares its upstream through a `PassthroughSubject`.
    ///
    /// ```swift
    /// let shared = Publishers.MakeConnectable(upstream: source)
    /// ```
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher where Upstream.Failure == Never {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// Never fails.
        public typealias Failure = Never

        @usableFromInline
        let multicast: Multicast<Upstream, PassthroughSubject<Upstream.Output, Never>>

        /// Wraps `upstream`.
        ///
        /// ```swift
        /// let shared = Publishers.MakeConnectable(upstream: source)
        /// ```
        @inlinable
        public init(upstream: Upstream) {
            multicast = upstream.multicast { PassthroughSubject() }
        }

        /// Attaches `subscriber`; values flow once connected.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            multicast.receive(subscriber: subscriber)
        }

        /// Subscribes to the upstream; cancel the result to stop.
        ///
        /// ```swift
        /// let connection = shared.connect()
        /// ```
        @inlinable
        public func connect() -> any Cancellable {
            multicast.connect()
        }
    }
}
