import Streams
import StreamsRecovery
import StreamsTesting
import Synchronization

/// The error-propagation article's example on a console: a conversation list whose loader
/// fails with categorised errors. The app-wide chain ends in the default handler (retryable:
/// "Try Again"/"Cancel"; requires logout: logs out without asking; otherwise "OK"), and the
/// screen puts its own handler for a missing conversation in front of it, as a view controller
/// handles an error before passing it up the responder chain.
public enum PropagatingErrorsArticle {
    /// The loader's errors, with the article's categories.
    public enum NetworkingError: CategorizedError, UserFacingError, Equatable {
        case deviceIsOffline
        case unauthorized
        case resourceNotFound

        public var category: ErrorCategory {
            switch self {
            case .deviceIsOffline: .retryable
            case .unauthorized: .requiresLogout
            case .resourceNotFound: .nonRetryable
            }
        }

        public var source: ErrorSource {
            switch self {
            case .deviceIsOffline: .externalSystemUnavailable
            case .unauthorized, .resourceNotFound: .externalSystemBehavedUnexpectedly
            }
        }

        public var errorDescription: String {
            switch self {
            case .deviceIsOffline: "You appear to be offline. Please check your connection."
            case .unauthorized: "Your session has expired."
            case .resourceNotFound: "The conversation could not be found."
            }
        }
    }

    /// What happened when the screen loaded with a given failure.
    public struct Outcome: Sendable {
        /// What the presenter was asked to show.
        public let shown: [RecordingPresenter.Shown]
        /// How many requests the loader received.
        public let requests: Int
        /// Whether the user was logged out.
        public let loggedOut: Bool
        /// The conversations loaded, if any.
        public let conversations: [String]
        /// How the stream ended: `finished` or `failed: <error>`.
        public let ending: String
    }

    /// Loads the conversation list while the loader fails with `error` `failures` times; the
    /// user answers `answers`. The loader retries twice by itself, a second apart.
    public static func load(
        failingWith error: NetworkingError, failures: Int, answers: [String] = [],
        print: @escaping @Sendable (String) -> Void = { _ in }
    ) -> Outcome {
        let scheduler = TestScheduler()
        let requests = Atomic(0)
        let loggedOut = Atomic(false)
        let presenter = RecordingPresenter(answers: answers, print: print)
        let appChain = ErrorHandlerChain(fallback: DefaultErrorHandler(logOut: { loggedOut.store(true, ordering: .relaxed) }))
        let screenChain = appChain.prepending(
            AnyErrorHandler(for: NetworkingError.self) { error in
                guard error == .resourceNotFound else { return nil }  // not this screen's: pass it up
                return ErrorPresentation(
                    source: .externalSystemBehavedUnexpectedly, title: "Conversation Deleted",
                    message: "This conversation is no longer available.", options: [.ok()])
            })
        let conversations = Mutex<[String]>([])
        let ending = Mutex("not ended")
        let loader = Deferred { () -> AnyPublisher<[String], NetworkingError> in
            let number = requests.add(1, ordering: .relaxed).newValue
            print("  request #\(number) at \(scheduler.now)")
            return number <= failures
                ? Fail(error: error).eraseToAnyPublisher()
                : Just(["Ann", "Bob"]).setFailureType(to: NetworkingError.self).eraseToAnyPublisher()
        }
        let subscription =
            loader
            .retry(2, backoff: .constant(.seconds(1)), scheduler: scheduler)
            .recover(through: screenChain, presenter: presenter.ask)
            .sink(
                receiveCompletion: { completion in
                    ending.withLock { $0 = if case .failure(let error) = completion { "failed: \(error)" } else { "finished" } }
                },
                receiveValue: { loaded in conversations.withLock { $0 = loaded } })
        scheduler.run()
        subscription.cancel()
        return Outcome(
            shown: presenter.shown, requests: requests.load(ordering: .relaxed), loggedOut: loggedOut.load(ordering: .relaxed),
            conversations: conversations.withLock { $0 }, ending: ending.withLock { $0 })
    }
}
