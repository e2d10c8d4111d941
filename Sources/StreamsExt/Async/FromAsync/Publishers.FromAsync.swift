import Streams

extension Publishers {
    /// A publisher that runs an `async` closure in a `Task` for each subscriber and sends its
    /// result: one value and `.finished`, or the failure it throws.
    ///
    /// - Lazy, as `Deferred { Future { ... } }` is: the task starts on the subscriber's first
    ///   request with demand, not at subscription, and every subscriber runs the closure once.
    /// - Cancelling the subscription cancels the task, and nothing reaches the subscriber after
    ///   the cancel, even if the closure ignores cancellation and returns a value.
    /// - The value and the completion are sent from the task, on no particular thread: use
    ///   `receive(on:)` to move them.
    /// - The failure type is the closure's thrown type: `Never` for a closure that does not
    ///   throw, `any Error` for one that throws untyped errors, or the type it throws with
    ///   typed throws.
    ///
    /// Sendability: the closure is `@Sendable`, since it runs in a task; the value is made in
    /// that task and handed to the subscriber there, so `Output` need not be `Sendable`.
    ///
    /// ```
    /// request(1) starts the task:   ---[task runs]--v|
    /// a thrown error:               ---[task runs]--X
    /// cancel during the task:       ---[task runs]-^  (task cancelled, nothing sent)
    /// ```
    ///
    /// ```swift
    /// let user = Publishers.FromAsync { try await api.user(id: 42) }   // Failure == any Error
    /// let cancellable = user.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    public struct FromAsync<Output, Failure: Error>: Publisher {
        /// The priority of the task, or nil for the default.
        public let priority: TaskPriority?
        /// The closure each subscriber runs in its own task.
        public let operation: @Sendable () async throws(Failure) -> Output

        /// Makes a publisher that runs `operation` in a task for each subscriber.
        ///
        /// ```swift
        /// let answer = Publishers.FromAsync { await oracle.answer() }      // Failure == Never
        /// let page = Publishers.FromAsync(priority: .utility) { try await download(url) }
        /// ```
        @inlinable
        public init(
            priority: TaskPriority? = nil, operation: @escaping @Sendable () async throws(Failure) -> Output
        ) {
            self.priority = priority
            self.operation = operation
        }

        /// Hands `subscriber` its subscription; the task starts on its first request.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(
                subscription: FromAsyncSubscription(downstream: subscriber, priority: priority, operation: operation))
        }
    }
}
