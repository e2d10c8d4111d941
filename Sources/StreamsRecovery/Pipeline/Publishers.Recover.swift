import Streams
import StreamsExt

extension Publisher {
    /// Lets the user decide what happens when the upstream fails: asks `chain` how to present
    /// the error, hands that to `presenter`, and acts on the first option the presenter's
    /// publisher sends: "Try Again" subscribes to the upstream again, "Cancel" finishes the
    /// stream quietly (`asResult()` tells it apart: `.failure(.cancelled)`), any other choice
    /// (or none: the presenter's publisher ends without a value) lets the error through. The
    /// option's action runs first. A presentation with an
    /// ``ErrorPresentation/automaticChoice`` (an expired session, by default) is not presented:
    /// that option is taken at once. An option that makes the new attempt itself ends the stream
    /// quietly instead of subscribing again, so that one choice is one request: a Foundation
    /// `RecoverableError` whose attempter succeeded, by default (see ``RecoveryAttempter``).
    ///
    /// "Try Again" is one new attempt: when the upstream retries by itself (it ends in
    /// `retry(_:when:backoff:...)`, `retry(_:)` or `minimumDuration` over one of them: see
    /// ``AutomaticallyRetrying``), the user's retry subscribes to what is before that retry,
    /// once; the user is the backoff. Pass `tryAgain: .withAutomaticRetries` to run the automatic
    /// retries again on each tap.
    ///
    /// `presenter` is where a UI shows an alert and publishes the tapped button, a script
    /// answers, or a test replies on a virtual clock. It is called on the thread the failure
    /// arrives on: put `receive(on:)` before this operator to present on the main queue. Built
    /// on `retry(on:)`, so downstream sees one subscription however many times the user tries
    /// again. The upstream must make a new request on each subscription: wrap an eager
    /// publisher (a `Future`, a value computed once) in `Deferred`, or "Try Again" replays the
    /// same failure.
    ///
    /// ```swift
    /// let profile = Deferred { api.fetchProfile() }   // a new request on each attempt
    ///     .retry(2, backoff: .exponential(), scheduler: DispatchQueue.main)
    ///     .minimumDuration(.milliseconds(500), scheduler: DispatchQueue.main)   // no flashing spinner, no hammering
    ///     .recover(through: chain) { presentation in
    ///         alertModel.show(presentation)          // renders title, message and buttons
    ///         return alertModel.chosenOption.first()
    ///     }
    /// ```
    public func recover<Presenter: Publisher>(
        through chain: ErrorHandlerChain,
        tryAgain: UserRetry = .singleAttempt,
        presenter: @escaping (ErrorPresentation) -> Presenter
    ) -> Publishers.Recover<Self, Presenter> where Presenter.Output == RecoveryOption {
        Publishers.Recover(upstream: self, chain: chain, presenter: presenter)
    }
}

extension Publisher where Self: AutomaticallyRetrying {
    /// `recover(through:tryAgain:presenter:)` for an upstream that retries by itself: with
    /// `tryAgain: .singleAttempt` (the default), "Try Again" subscribes to its
    /// ``AutomaticallyRetrying/singleAttempt`` instead of running all its retries again.
    ///
    /// ```swift
    /// let answer = Deferred { api.fetchProfile() }
    ///     .retry(3, backoff: .exponential(), scheduler: DispatchQueue.main)   // up to 4 requests
    ///     .recover(through: chain) { alert.ask($0) }                            // then 1 per "Try Again"
    /// ```
    public func recover<Presenter: Publisher>(
        through chain: ErrorHandlerChain,
        tryAgain: UserRetry = .singleAttempt,
        presenter: @escaping (ErrorPresentation) -> Presenter
    ) -> Publishers.Recover<Self, Presenter> where Presenter.Output == RecoveryOption {
        Publishers.Recover(
            upstream: self, chain: chain,
            tryAgainWith: tryAgain == .singleAttempt ? singleAttempt.eraseToAnyPublisher() : nil,
            presenter: presenter)
    }
}

extension Publishers {
    /// A publisher that presents its upstream's failures through an ``ErrorHandlerChain`` and
    /// acts on the option the user chooses.
    ///
    /// ```swift
    /// let recovering = Publishers.Recover(upstream: request, chain: chain) { _ in Just(.tryAgain()) }
    /// ```
    public struct Recover<Upstream: Publisher, Presenter: Publisher>: Publisher where Presenter.Output == RecoveryOption {
        /// The upstream's values.
        public typealias Output = Upstream.Output
        /// The upstream's failure, delivered when the user neither tries again nor cancels.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to first, and again on "Try Again" unless a single attempt
        /// of it was given.
        public let upstream: Upstream
        /// Decides how each failure is presented.
        public let chain: ErrorHandlerChain
        /// Shows a presentation and publishes the chosen option.
        public let presenter: (ErrorPresentation) -> Presenter
        /// What "Try Again" subscribes to, when not `upstream` itself: its single attempt.
        let retried: AnyPublisher<Output, Failure>?

        /// Makes the publisher; "Try Again" subscribes to `upstream` again.
        ///
        /// ```swift
        /// let recovering = Publishers.Recover(upstream: request, chain: chain) { _ in Just(.cancel()) }
        /// ```
        public init(upstream: Upstream, chain: ErrorHandlerChain, presenter: @escaping (ErrorPresentation) -> Presenter) {
            self.init(upstream: upstream, chain: chain, tryAgainWith: nil, presenter: presenter)
        }

        init(
            upstream: Upstream, chain: ErrorHandlerChain, tryAgainWith retried: AnyPublisher<Output, Failure>?,
            presenter: @escaping (ErrorPresentation) -> Presenter
        ) {
            self.upstream = upstream
            self.chain = chain
            self.retried = retried
            self.presenter = presenter
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let run = RecoveryRun()
            recovering(run)
                .catch { error -> AnyPublisher<Output, Failure> in
                    // "Cancel" becomes a quiet finish.
                    run.isCancelled ? Empty().eraseToAnyPublisher() : Fail(error: error).eraseToAnyPublisher()
                }
                .receive(subscriber: subscriber)
        }

        /// The attempts, each failure presented and acted on; fails with the error the user
        /// let through or cancelled (then `run` says so). One `run` per subscription.
        func recovering(_ run: RecoveryRun) -> AnyPublisher<Output, Failure> {
            let (chain, presenter) = (self.chain, self.presenter)
            let decide = { (error: Failure) -> AnyPublisher<Void, Presenter.Failure> in
                let presentation = chain.presentation(for: error)
                let chosen: AnyPublisher<RecoveryOption, Presenter.Failure> =
                    if let automatic = presentation.automaticChoice {
                        Just(automatic).setFailureType(to: Presenter.Failure.self).eraseToAnyPublisher()
                    } else {
                        presenter(presentation).first().eraseToAnyPublisher()
                    }
                return chosen.compactMap { option -> Void? in
                    switch option.choose() {
                    case .tryAgain: return ()
                    case .cancel: run.markCancelled()
                    case .fail: break
                    }
                    return nil
                }
                .eraseToAnyPublisher()
            }
            guard let retried else { return upstream.retry(on: decide).eraseToAnyPublisher() }
            let first = upstream
            return Deferred { run.startAttempt() ? first.eraseToAnyPublisher() : retried }
                .retry(on: decide)
                .eraseToAnyPublisher()
        }
    }
}
