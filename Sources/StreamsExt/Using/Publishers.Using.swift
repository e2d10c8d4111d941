import Streams

extension Publishers {
    /// A publisher that makes a resource for each subscriber, builds the publisher to subscribe
    /// to from it, and disposes of it when the subscription ends. RxSwift's `using`.
    ///
    /// - At subscription, `resourceFactory` makes the resource and `publisherFactory` the
    ///   publisher, which is subscribed to at once; each subscriber gets its own resource.
    /// - The resource is disposed of exactly once: right after the completion has been sent
    ///   downstream, or right after the upstream has been cancelled. Nothing holds it after that.
    /// - Values, requests and the completion pass straight through.
    ///
    /// ```
    /// upstream: --a--b--|
    /// result:   --a--b--|     resource made at subscription, disposed of after |
    /// ```
    ///
    /// ```swift
    /// // A log file open exactly as long as someone listens to the lines written to it.
    /// let lines = Publishers.Using(
    ///     resourceFactory: { LogFile(path) },           // a Cancellable: cancel() closes it
    ///     publisherFactory: { file in file.lines })
    /// ```
    public struct Using<Resource, Upstream: Publisher>: Publisher {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// Makes the resource, once per subscriber.
        public let resourceFactory: () -> Resource
        /// Makes the publisher to subscribe to from the resource.
        public let publisherFactory: (Resource) -> Upstream
        /// Disposes of the resource when the subscription ends.
        public let dispose: (Resource) -> Void

        /// Makes a publisher that subscribes to `publisherFactory(resource)` and calls
        /// `dispose(resource)` when the subscription completes or is cancelled.
        ///
        /// ```swift
        /// let rows = Publishers.Using(
        ///     resourceFactory: { try! Database.open(url) },
        ///     publisherFactory: { database in database.rows(query) },
        ///     dispose: { database in database.close() })
        /// ```
        @inlinable
        public init(
            resourceFactory: @escaping () -> Resource, publisherFactory: @escaping (Resource) -> Upstream,
            dispose: @escaping (Resource) -> Void
        ) {
            self.resourceFactory = resourceFactory
            self.publisherFactory = publisherFactory
            self.dispose = dispose
        }

        /// Makes the resource and the publisher, and subscribes `subscriber` to it.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let resource = resourceFactory()
            let upstream = publisherFactory(resource)
            let dispose = self.dispose
            upstream.receive(
                subscriber: UsingSubscription(downstream: subscriber, disposal: { dispose(resource) }))
        }
    }
}

extension Publishers.Using where Resource: Cancellable {
    /// Makes a publisher that subscribes to `publisherFactory(resource)` and cancels the
    /// resource when the subscription completes or is cancelled.
    ///
    /// ```swift
    /// let lines = Publishers.Using(
    ///     resourceFactory: { LogFile(path) },
    ///     publisherFactory: { file in file.lines })
    /// ```
    @inlinable
    public init(resourceFactory: @escaping () -> Resource, publisherFactory: @escaping (Resource) -> Upstream) {
        self.init(resourceFactory: resourceFactory, publisherFactory: publisherFactory, dispose: { $0.cancel() })
    }

    /// CombineExt's spelling of ``init(resourceFactory:publisherFactory:)``, with the resource
    /// factory unlabelled.
    ///
    /// ```swift
    /// let lines = Publishers.Using({ LogFile(path) }, publisherFactory: { file in file.lines })
    /// ```
    @inlinable
    public init(_ resourceFactory: @escaping () -> Resource, publisherFactory: @escaping (Resource) -> Upstream) {
        self.init(resourceFactory: resourceFactory, publisherFactory: publisherFactory)
    }
}
