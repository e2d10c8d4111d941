import Streams
import Synchronization

extension Publisher {
    /// Lets the user decide what happens when the upstream fails: asks `chain` how to present
    /// the error, hands that to `presenter`, and acts on the first option the presenter's
    /// publisher sends: "Try Again" subscribes to the upstream again, "Cancel" finishes the
    /// stream quietly, any other choice (or none: the presenter's publisher ends without a
    /// value) lets the error through. The option's action runs first.
    ///
    /// `presenter` is where a UI shows an alert and publishes the tapped button, a script
    /// answers, or a test replies on a virtual clock. It is called on the thread the failure
    /// arrives on: put `receive(on:)` before this operator to present on the main queue. Built
    /// on `retry(on:)`, so downstream sees one subscription however many times the user tries
    /// again.
    ///
    /// ```swift
    /// let profile = api.fetchProfile()
    ///     .minimumDuration(.milliseconds(500), scheduler: DispatchQueue.main)   // no flashing spinner, no hammering
    ///     .recover(through: chain) { presentation in
    ///         alertModel.show(presentation)          // renders title, message and buttons
    ///         return alertModel.chosenOption.first()
    ///     }
    /// ```
    public func recover<Presenter: Publisher>(
        through chain: ErrorHandlerChain,
        presenter: @escaping (ErrorPresentation) -> Presenter
    ) -> Publishers.Recover<Self, Presenter> where Presenter.Output == RecoveryOption {
        Publishers.Recover(upstream: self, chain: chain, presenter: presenter)
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

        /// The publisher subscribed to again on "Try Again".
        public let upstream: Upstream
        /// Decides how each failure is presented.
        public let chain: ErrorHandlerChain
        /// Shows a presentation and publishes the chosen option.
        public let presenter: (ErrorPresentation) -> Presenter

        /// Makes the publisher.
        ///
        /// ```swift
        /// let recovering = Publishers.Recover(upstream: request, chain: chain) { _ in Just(.cancel()) }
        /// ```
        public init(upstream: Upstream, chain: ErrorHandlerChain, presenter: @escaping (ErrorPresentation) -> Presenter) {
            self.upstream = upstream
            self.chain = chain
            self.presenter = presenter
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (chain, presenter) = (self.chain, self.presenter)
            // Set when the user cancels, so that the error `retry(on:)` then delivers becomes a
            // quiet finish. One per subscription.
            let cancelled = CancelMark()
            upstream
                .retry(on: { error in
                    presenter(chain.presentation(for: error))
                        .first()
                        .compactMap { option -> Void? in
                            switch option.choose() {
                            case .tryAgain: return ()
                            case .cancel: cancelled.mark()
                            case .fail: break
                            }
                            return nil
                        }
                })
                .catch { error -> AnyPublisher<Output, Failure> in
                    cancelled.isMarked
                        ? Empty().eraseToAnyPublisher()
                        : Fail(error: error).eraseToAnyPublisher()
                }
                .receive(subscriber: subscriber)
        }
    }
}

/// Whether the user chose to cancel.
final class CancelMark: Sendable {
    private let marked = Atomic(false)

    var isMarked: Bool { marked.load(ordering: .acquiring) }

    func mark() {
        marked.store(true, ordering: .releasing)
    }
}
