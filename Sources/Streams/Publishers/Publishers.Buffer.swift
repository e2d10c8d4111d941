extension Publisher {
    /// Keeps up to `size` values that arrive while the downstream has no demand, and sends them
    /// as it asks.
    ///
    /// With `.keepFull` the buffer asks upstream for `size` values at once and for one more each
    /// time a value leaves it; with `.byRequest` it asks upstream for unlimited values once the
    /// downstream first asks. A value that finds the buffer full is handled by `whenFull`: dropped
    /// (`.dropNewest`), or makes room by dropping the oldest (`.dropOldest`), or fails the stream
    /// (`.customError`). `.finished` waits until the buffer is empty; a failure is sent at once
    /// and the buffered values are discarded.
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

/// The subscription of ``Publishers/Buffer``. Every value goes through the buffer; whoever finds
/// nothing draining (an arriving value or a request) drains it while there is demand, so the
/// subscriber is never called concurrently.
@usableFromInline
final class BufferSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline
    let size: Int
    @usableFromInline
    let prefetch: Publishers.PrefetchStrategy
    @usableFromInline
    let whenFull: Publishers.BufferingStrategy<Upstream.Failure>
    @usableFromInline
    let lock = Lock()

    // Guarded by `lock`.
    @usableFromInline
    @exclusivity(unchecked)
    var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline
    @exclusivity(unchecked)
    var downstream: Box<Downstream>?
    @usableFromInline
    @exclusivity(unchecked)
    var values: [Upstream.Output] = []
    @usableFromInline
    @exclusivity(unchecked)
    var head = 0
    @usableFromInline
    @exclusivity(unchecked)
    var demand = Subscribers.Demand.none
    @usableFromInline
    @exclusivity(unchecked)
    var draining = false
    @usableFromInline
    @exclusivity(unchecked)
    var finished = false
    @usableFromInline
    @exclusivity(unchecked)
    var askedUnlimited = false

    @inlinable
    init(downstream: Downstream, buffer: Publishers.Buffer<Upstream>) {
        self.downstream = Box(downstream)
        size = buffer.size
        prefetch = buffer.prefetch
        whenFull = buffer.whenFull
    }

    @inlinable
    var count: Int { values.count - head }

    @inlinable
    func receive(subscription: any Subscription) {
        let accepted = lock.withLockUnchecked { () -> Bool in
            guard case .awaitingSubscription = status, downstream != nil else { return false }
            status = .subscribed(subscription)
            return true
        }
        guard accepted, let downstream = lock.withLockUnchecked({ downstream }) else {
            subscription.cancel()
            return
        }
        downstream.value.receive(subscription: self)
        if prefetch == .keepFull { subscription.request(.max(size)) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        let overflow = lock.withLockUnchecked { () -> Bool in
            guard case .subscribed = status else { return false }
            guard count == size else {
                values.append(input)
                return false
            }
            switch whenFull {
            case .dropNewest:
                return false
            case .dropOldest:
                head += 1
                values.append(input)
                if head >= size {
                    values.removeFirst(head)
                    head = 0
                }
                return false
            case .customError:
                return true
            }
        }
        if overflow, case .customError(let makeError) = whenFull {
            fail(makeError(), cancelUpstream: true)
            return .none
        }
        drain()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        switch completion {
        case .finished:
            let subscribed = lock.withLockUnchecked { () -> Bool in
                guard case .subscribed = status else { return false }
                status = .terminal
                finished = true
                return true
            }
            if subscribed { drain() }
        case .failure(let error):
            fail(error, cancelUpstream: false)
        }
    }

    /// Sends the failure at once and discards the buffer.
    @inlinable
    func fail(_ error: Downstream.Failure, cancelUpstream: Bool) {
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?, [Upstream.Output]) in
            guard downstream != nil, !finished else { return (.terminal, nil, []) }
            defer {
                status = .terminal
                downstream = nil
                values = []
                head = 0
            }
            return (cancelUpstream ? status : .terminal, downstream, values)
        }
        taken.0.cancel()
        taken.1?.value.receive(completion: .failure(error))
    }

    /// Sends buffered values while there is demand, unless another call is already doing so;
    /// finishes once upstream has finished and the buffer is empty.
    @inlinable
    func drain() {
        guard
            lock.withLockUnchecked({ () -> Bool in
                guard !draining else { return false }
                draining = true
                return true
            })
        else { return }
        while true {
            let step = lock.withLockUnchecked { () -> DrainStep in
                guard let downstream else {
                    draining = false
                    return .stop
                }
                if count > 0 && demand > 0 {
                    demand -= 1
                    let value = values[head]
                    head += 1
                    if head == values.count {
                        values.removeAll(keepingCapacity: true)
                        head = 0
                    }
                    return .send(downstream, value, prefetch == .keepFull ? status : .terminal)
                }
                if finished && count == 0 {
                    self.downstream = nil
                    return .finish(downstream)
                }
                draining = false
                return .stop
            }
            switch step {
            case .stop:
                return
            case .send(let downstream, let value, let upstream):
                let more = downstream.value.receive(value)
                if more > 0 { lock.withLockUnchecked { demand += more } }
                upstream.request(.max(1))
            case .finish(let downstream):
                downstream.value.receive(completion: .finished)
                return
            }
        }
    }

    /// What `drain()` does once it has left the lock.
    @usableFromInline
    enum DrainStep {
        case stop
        case send(Box<Downstream>, Upstream.Output, SubscriptionStatus)
        case finish(Box<Downstream>)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        // As in Combine, `.none` is accepted and changes nothing.
        guard demand > 0 else { return }
        let upstream = lock.withLockUnchecked { () -> SubscriptionStatus in
            self.demand += demand
            guard prefetch == .byRequest, !askedUnlimited else { return .terminal }
            askedUnlimited = true
            return status
        }
        upstream.request(.unlimited)
        drain()
    }

    @inlinable
    func cancel() {
        // Handed out of the lock so that what they hold is released outside it.
        let taken = lock.withLockUnchecked { () -> (SubscriptionStatus, Box<Downstream>?, [Upstream.Output]) in
            // As in Combine, a cancel before the upstream subscription is a no-op.
            if case .awaitingSubscription = status { return (status, nil, []) }
            defer {
                status = .terminal
                downstream = nil
                values = []
                head = 0
            }
            return (status, downstream, values)
        }
        taken.0.cancel()
    }

    @usableFromInline
    var description: String { "Buffer" }

    @usableFromInline
    var customMirror: Mirror {
        lock.withLockUnchecked {
            Mirror(
                self,
                children: [
                    "values": Array(values[head...]), "state": status, "downstreamDemand": demand, "terminal": finished,
                ])
        }
    }

    @usableFromInline
    var playgroundDescription: Any { description }
}
