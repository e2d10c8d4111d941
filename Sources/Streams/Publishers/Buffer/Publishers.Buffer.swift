extension Publisher {
    /// Keeps up to `size` values that arrive while the downstream has no demand, and sends them
    /// as it asks.
    ///
    /// As in Combine, upstream is asked as soon as it subscribes, before the downstream asks:
    /// with `.keepFull` for `size` values, then again for as many as have left the buffer; with
    /// `.byRequest` for unlimited values. A value that finds the buffer full is handled by
    /// `whenFull`: dropped (`.dropNewest`), or makes room by dropping the oldest (`.dropOldest`),
    /// or fails the stream (`.customError`). `.finished` waits until the buffer is empty and the
    /// downstream has demand; a failure goes out once the downstream has no demand left or the
    /// buffer is empty. `size` may be 0 (every value overflows).
    ///
    /// ```swift
    /// let smoothed = sensor.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    @inlinable
    public func buffer(
        size: Int,
        prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// When a ``Buffer`` asks its upstream for values.
    ///
    /// ```swift
    /// let prefetch = Publishers.PrefetchStrategy.keepFull
    /// ```
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Asks for enough values to keep the buffer full.
        case keepFull
        /// Asks for unlimited values once the downstream first asks.
        case byRequest
    }

    /// What a ``Buffer`` does with a value that finds it full.
    ///
    /// ```swift
    /// let whenFull = Publishers.BufferingStrategy<Never>.dropOldest
    /// ```
    public enum BufferingStrategy<Failure: Error> {
        /// Drops the new value.
        case dropNewest
        /// Drops the oldest buffered value to make room.
        case dropOldest
        /// Fails the stream with the error the closure makes.
        case customError(() -> Failure)
    }

    /// A publisher that buffers its upstream's values until the downstream asks for them.
    ///
    /// ```swift
    /// let smoothed = Publishers.Buffer(upstream: sensor, size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream
        /// The most values kept.
        public let size: Int
        /// When upstream is asked for values.
        public let prefetch: PrefetchStrategy
        /// What happens to a value that finds the buffer full.
        public let whenFull: BufferingStrategy<Upstream.Failure>

        /// Makes a buffer of `size` values in front of `upstream`.
        ///
        /// ```swift
        /// let smoothed = Publishers.Buffer(upstream: sensor, size: 100, prefetch: .byRequest, whenFull: .dropNewest)
        /// ```
        @inlinable
        public init(upstream: Upstream, size: Int, prefetch: PrefetchStrategy, whenFull: BufferingStrategy<Failure>) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber`.
        @inlinable
        @inline(__always)
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: BufferSubscription(downstream: subscriber, buffer: self))
        }
    }
}

/// The subscription of ``Publishers/Buffer``; its phases are ``BufferStateMachine``'s. Whoever
/// finds nothing draining (an arriving value, a completion or a request) drains the buffer while
/// there is demand, so the subscriber is never called concurrently.
@usableFromInline
final class BufferSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    typealias Machine = BufferStateMachine<Downstream, Upstream.Output, Upstream.Failure>

    @usableFromInline
    let makeError: (() -> Upstream.Failure)?
    @usableFromInline
    let lock = Lock()
    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var machine: Machine

    @inlinable
    init(downstream: Downstream, buffer: Publishers.Buffer<Upstream>) {
        let overflow: Machine.Overflow
        switch buffer.whenFull {
        case .dropNewest:
            overflow = .dropNewest
            makeError = nil
        case .dropOldest:
            overflow = .dropOldest
            makeError = nil
        case .customError(let make):
            overflow = .customError
            makeError = make
        }
        machine = Machine(
            downstream: downstream, size: max(buffer.size, 0), keepFull: buffer.prefetch == .keepFull,
            overflow: overflow)
    }

    @inlinable
    func receive(subscription: any Subscription) {
        guard let (initial, downstream) = lock.withLockUnchecked({ machine.subscription(subscription) }) else {
            subscription.cancel()
            return
        }
        // As in Combine, upstream is asked before the downstream has the subscription.
        subscription.request(initial)
        downstream.receive(subscription: self)
        lock.withLockUnchecked { machine.subscriptionHandedDownstream() }
        // A completion that arrived inside the initial request may be due now.
        _ = drain()
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        switch lock.withLockUnchecked({ machine.value(input) }) {
        case .ignore:
            return .none
        case .drain:
            // Inside a value, `.keepFull` returns the number of delivered values as demand.
            return .max(drain().delivered)
        case .makeError:
            let error = makeError!()
            lock.withLockUnchecked { machine.overflowed(error) }?.cancel()
            _ = drain()
            return .none
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        if lock.withLockUnchecked({ machine.completion(completion) }) {
            _ = drain()
        }
    }

    /// Sends buffered values while there is demand, then a completion when it is due, unless
    /// another call is already draining. Returns how many values `.keepFull` asks `upstream`
    /// for again.
    @inlinable
    func drain() -> (delivered: Int, upstream: (any Subscription)?) {
        guard lock.withLockUnchecked({ machine.beginDrain() }) else { return (0, nil) }
        var returned = Subscribers.Demand.none
        while true {
            switch lock.withLockUnchecked({ machine.drainStep(returned: returned) }) {
            case .send(let downstream, let value):
                returned = downstream.receive(value)
            case .complete(let downstream, let completion, _):
                downstream.receive(completion: completion)
                return (0, nil)
            case .stop(let delivered, let upstream):
                return (delivered, upstream)
            }
        }
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard lock.withLockUnchecked({ machine.request(demand) }) else { return }
        // Inside a request, `.keepFull` asks for the delivered values with a request.
        let (delivered, upstream) = drain()
        upstream?.request(.max(delivered))
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what it holds is released outside it.
        let (upstream, _) = lock.withLockUnchecked { machine.cancel() }
        upstream?.cancel()
    }

    @usableFromInline
    var description: String { "Buffer" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            let terminal: Subscribers.Completion<Upstream.Failure>? =
                if case .completing(let completion) = machine.phase { completion } else { nil }
            return Mirror(
                self,
                children: [
                    "values": machine.buffered, "state": machine.phase, "downstreamDemand": machine.demand,
                    "terminal": terminal as Any,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
