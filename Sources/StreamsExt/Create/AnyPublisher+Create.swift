import Streams

extension AnyPublisher {
    /// A publisher made from a closure that is run for every subscriber: it sends values and a
    /// completion through the handle it is given, and returns what cancels its work.
    /// CombineExt's `create` (RxSwift's `Observable.create`).
    ///
    /// - Buffering rule: values sent while the downstream has no demand are kept, in order,
    ///   without bound, and delivered as demand arrives.
    /// - Completion rule (CombineExt's): until the downstream's first request, a completion
    ///   waits behind the kept values, and that request (of any demand, `.none` included)
    ///   delivers the values it covers, then the completion. After the first request, a
    ///   completion is delivered when it is sent, after the kept values the demand covers; the
    ///   others are dropped.
    /// - The returned cancellable is cancelled when the subscription is cancelled, and also once
    ///   the completion has been delivered, so that the work it stands for is always let go.
    /// - Anything sent after the completion, or after a cancel, is ignored.
    ///
    /// ```swift
    /// let numbers = AnyPublisher<Int, Never>.create { subscriber in
    ///     subscriber.send(1)
    ///     subscriber.send(2)
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable {}
    /// }
    /// ```
    @inlinable
    public static func create(
        _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
    ) -> AnyPublisher<Output, Failure> {
        Publishers.Create(factory: factory).eraseToAnyPublisher()
    }

    /// Makes a publisher from a closure run for every subscriber, as ``create(_:)`` does; the
    /// initializer form CombineExt also offers. Same buffering, completion and cancellation
    /// rules.
    ///
    /// ```swift
    /// let greetings = AnyPublisher<String, Never> { subscriber in
    ///     subscriber.send("Hello")
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable {}
    /// }
    /// ```
    @inlinable
    public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
        self = Publishers.Create(factory: factory).eraseToAnyPublisher()
    }
}
