import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import Synchronization

/// Asks the sign-up server whether a user name is free.
public struct UserNameClient<S: Scheduler> {
    struct Availability: Decodable {
        let isAvailable: Bool
    }

    /// The server's address, such as `http://127.0.0.1:8080`.
    public let baseURL: String
    /// The session requests go through.
    public let session: URLSession
    /// Where retries wait.
    public let scheduler: S
    /// How many times a retryable failure is retried.
    public let maxRetries: Int
    /// The backoff between retries.
    public let backoff: Backoff
    /// Told about each request, retry and cancelled check, for the demo's timeline.
    public let events: @Sendable (CheckEvent) -> Void

    /// Makes a client.
    public init(
        baseURL: String,
        session: URLSession = .shared,
        scheduler: S,
        maxRetries: Int = 3,
        backoff: Backoff = .exponential(initial: .milliseconds(200), maxDelay: .seconds(2)),
        events: @escaping @Sendable (CheckEvent) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.session = session
        self.scheduler = scheduler
        self.maxRetries = maxRetries
        self.backoff = backoff
        self.events = events
    }

    /// The characters a query value may carry as they are (RFC 3986's unreserved ones).
    static var unreserved: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    }

    /// One availability check: a request per attempt, validated, decoded, retried.
    public func isAvailable(_ userName: String) -> AnyPublisher<Bool, NetworkError> {
        let query = userName.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? userName
        let url = "\(baseURL)/isUserNameAvailable?userName=\(query)"
        let events = self.events
        let session = self.session
        let backoff = self.backoff
        // Whether a request is on the wire, and whether the whole check has ended, for the
        // cancellation line.
        let state = Mutex((inFlight: false, ended: false))
        return Deferred { () -> Publishers.HandleEvents<URLSession.RequestPublisher> in
            session.requestPublisher(for: url).handleEvents(
                receiveSubscription: { _ in
                    state.withLock { $0.inFlight = true }
                    events(.request(name: userName))
                },
                receiveOutput: { _ in state.withLock { $0.inFlight = false } },
                receiveCompletion: { _ in state.withLock { $0.inFlight = false } },
                receiveCancel: { state.withLock { $0.inFlight = false } })
        }
        .validateStatus()
        .decode(type: Availability.self, decoder: JSONDecoder())
        .map(\.isAvailable)
        .retry(
            maxRetries, when: RetryPolicy.shouldRetry, backoff: backoff, scheduler: scheduler,
            onRetry: { attempt in
                events(
                    .retry(
                        name: userName, number: attempt.retry, serverHint: attempt.error.retryAfter,
                        backoff: backoff.baseDelay(forRetry: attempt.retry), jittered: backoff.jitter != .none,
                        wait: attempt.delay))
            }
        )
        .handleEvents(
            receiveCompletion: { _ in state.withLock { $0.ended = true } },
            receiveCancel: {
                let (inFlight, ended) = state.withLock { ($0.inFlight, $0.ended) }
                if !ended { events(.cancelled(name: userName, inFlight: inFlight)) }
            }
        )
        .eraseToAnyPublisher()
    }
}

/// Which failures the sign-up client retries.
public enum RetryPolicy {
    /// Transport failures that are worth retrying, and server errors that say when to come back
    /// (`Retry-After`). A 500 without a hint is shown at once: retrying it would only keep the
    /// user waiting.
    ///
    /// ```swift
    /// request.retry(3, when: RetryPolicy.shouldRetry, backoff: .exponential(), scheduler: queue)
    /// ```
    public static func shouldRetry(_ error: NetworkError) -> Bool {
        switch error {
        case .transport: error.resolveCategory() == .retryable
        case .server: error.resolveCategory() == .retryable && error.retryAfter != nil
        default: false
        }
    }
}
