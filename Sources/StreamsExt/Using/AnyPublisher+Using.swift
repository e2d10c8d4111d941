import Streams

extension AnyPublisher {
    /// A publisher whose subscribers each get a resource that lives exactly as long as their
    /// subscription: RxSwift's `Observable.using`, spelled like ``create(_:)``. The resource is
    /// made at subscription, the publisher to subscribe to is built from it, and the resource is
    /// cancelled once, right after the completion is delivered or the subscription is cancelled
    /// (see ``Publishers/Using``).
    ///
    /// ```swift
    /// let lines = AnyPublisher<String, Never>.using({ LogFile(path) }) { file in file.lines }
    /// ```
    @inlinable
    public static func using<Resource: Cancellable, Upstream: Publisher>(
        _ resourceFactory: @escaping () -> Resource, _ publisherFactory: @escaping (Resource) -> Upstream
    ) -> AnyPublisher<Output, Failure> where Upstream.Output == Output, Upstream.Failure == Failure {
        Publishers.Using(resourceFactory: resourceFactory, publisherFactory: publisherFactory).eraseToAnyPublisher()
    }

    /// ``using(_:_:)`` for a resource of any type, which `dispose` lets go of when the
    /// subscription ends.
    ///
    /// ```swift
    /// let rows = AnyPublisher<Row, DatabaseError>.using({ try! Database.open(url) }, { $0.rows(query) }) {
    ///     $0.close()
    /// }
    /// ```
    @inlinable
    public static func using<Resource, Upstream: Publisher>(
        _ resourceFactory: @escaping () -> Resource, _ publisherFactory: @escaping (Resource) -> Upstream,
        dispose: @escaping (Resource) -> Void
    ) -> AnyPublisher<Output, Failure> where Upstream.Output == Output, Upstream.Failure == Failure {
        Publishers.Using(resourceFactory: resourceFactory, publisherFactory: publisherFactory, dispose: dispose)
            .eraseToAnyPublisher()
    }
}
