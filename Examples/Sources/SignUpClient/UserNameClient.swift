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
    /// Told about each request and retry, for the demo's timeline.
    public let log: @Sendable (String) -> Void

    /// Makes a client.
    public init(
        baseURL: String,
        session: URLSession = .shared,
        scheduler: S,
        maxRetries: Int = 3,
        backoff: Backoff = .exponential(initial: .milliseconds(200), maxDelay: .seconds(2)),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.baseURL = baseURL
        self.session = session
        self.scheduler = scheduler
        self.maxRetries = maxRetries
        self.backoff = backoff
        self.log = log
    }

    /// One availability check: a request per attempt, validated, decoded, retried.
    public func isAvailable(_ userName: String) -> AnyPublisher<Bool, NetworkError> {
        let query = userName.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? userName
        let url = "\(baseURL)/isUserNameAvailable?userName=\(query)"
        let log = self.log
        let session = self.session
        return Deferred { () -> Publishers.HandleEvents<URLSession.RequestPublisher> in
            // Per attempt: a cancel is worth a line only while the request is in flight.
            let answered = Mutex(false)
            return session.requestPublisher(for: url).handleEvents(
                receiveSubscription: { _ in log("request  GET /isUserNameAvailable?userName=\(userName)") },
                receiveOutput: { _ in answered.withLock { $0 = true } },
                receiveCompletion: { _ in answered.withLock { $0 = true } },
                receiveCancel: { if !answered.withLock({ $0 }) { log("cancel   request for \(userName) in flight") } })
        }
        .validateStatus()
        .decode(type: Availability.self, decoder: JSONDecoder())
        .map(\.isAvailable)
        .retry(
            maxRetries, when: RetryPolicy.shouldRetry, backoff: backoff, scheduler: scheduler,
            onRetry: { attempt in
                log("retry    #\(attempt.retry) for \(userName) in \(attempt.delay) after: \(attempt.error)")
            })
        .eraseToAnyPublisher()
    }
}

/// Which failures the sign-up client retries.
public enum RetryPolicy {
    /// Transport failures, and server errors that say when to come back (`Retry-After`). A 500
    /// without a hint is shown at once: retrying it would only keep the user waiting.
    public static func shouldRetry(_ error: NetworkError) -> Bool {
        switch error {
        case .transport: error.resolveCategory() == .retryable
        case .server: error.resolveCategory() == .retryable && error.retryAfter != nil
        default: false
        }
    }
}
