import Streams

extension Publishers.Recover {
    /// `asResult()` that tells a cancelled stream apart: the values as `.success`, then
    /// `.failure(.cancelled)` when the user chose "Cancel", or `.failure(.failed(error))` when
    /// the error came through. Never fails. (On other publishers, `asResult()` gives a plain
    /// `Result`; here "Cancel" would otherwise look like a success without a value.)
    ///
    /// ```swift
    /// request.recover(through: chain, presenter: alert.ask)
    ///     .asResult()
    ///     .sink { result in if case .failure(.cancelled) = result { showPlaceholder() } }
    /// ```
    public func asResult() -> Publishers.RecoverResult<Upstream, Presenter> {
        Publishers.RecoverResult(recover: self)
    }
}

extension Publishers {
    /// A ``Recover`` whose outcome is a value: each upstream value as `.success`, and at the end
    /// `.failure(.cancelled)` or `.failure(.failed(error))` when it did not finish by itself.
    ///
    /// ```swift
    /// let results = Publishers.RecoverResult(recover: request.recover(through: chain, presenter: alert.ask))
    /// ```
    public struct RecoverResult<Upstream: Publisher, Presenter: Publisher>: Publisher
    where Presenter.Output == RecoveryOption {
        /// A value of the upstream, or why the stream ended without one.
        public typealias Output = Result<Upstream.Output, RecoveryError<Upstream.Failure>>
        /// Never fails: failures are values.
        public typealias Failure = Never

        /// The recovering publisher.
        public let recover: Recover<Upstream, Presenter>

        /// Makes the publisher.
        ///
        /// ```swift
        /// let results = Publishers.RecoverResult(recover: recovering)
        /// ```
        public init(recover: Recover<Upstream, Presenter>) {
            self.recover = recover
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let run = RecoveryRun()
            recover.recovering(run)
                .map { Output.success($0) }
                .catch { error in Just(Output.failure(run.isCancelled ? .cancelled : .failed(error))) }
                .receive(subscriber: subscriber)
        }
    }
}
