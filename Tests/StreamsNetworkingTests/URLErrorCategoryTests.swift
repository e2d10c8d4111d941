import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import StreamsNetworking
import StreamsTesting
import Testing

/// `URLError`'s default category, and what users read for network errors.
@Suite("URLError categories and user-facing messages")
struct URLErrorCategoryTests {
    @Test(arguments: [
        URLError.Code.timedOut, .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost, .networkConnectionLost,
        .notConnectedToInternet, .badServerResponse, .dataNotAllowed,
    ])
    func failuresOfTheConnectionAreRetryable(_ code: URLError.Code) {
        #expect(URLError(code).category == .retryable)
        #expect(NetworkError.transport(URLError(code)).category == .retryable)
    }

    @Test(arguments: [
        URLError.Code.cancelled, .badURL, .unsupportedURL, .secureConnectionFailed, .serverCertificateUntrusted,
        .serverCertificateHasBadDate, .clientCertificateRequired, .httpTooManyRedirects, .unknown,
    ])
    func otherFailuresAreNotRetryable(_ code: URLError.Code) {
        #expect(URLError(code).category == .nonRetryable)
    }

    @Test func authenticationRequiredRequiresLogout() {
        #expect(URLError(.userAuthenticationRequired).category == .requiresLogout)
    }

    @Test func theDefaultPredicateRetriesAPlainURLError() {
        let scheduler = TestScheduler()
        let subscriptions = Locked(0)
        let recorder = TestSubscriber<Int, URLError>()
        Deferred {
            subscriptions.withLock { $0 += 1 }
            return Fail<Int, URLError>(error: URLError(.networkConnectionLost))
        }
        .retry(3, backoff: .exponential(), scheduler: scheduler)
        .subscribe(recorder)
        scheduler.run()
        #expect(subscriptions.withLock { $0 } == 4)
        #expect(recorder.completion == .failure(URLError(.networkConnectionLost)))
    }

    @Test func theDefaultPredicateDoesNotRetryABadURL() {
        let scheduler = TestScheduler()
        let subscriptions = Locked(0)
        Deferred {
            subscriptions.withLock { $0 += 1 }
            return Fail<Int, URLError>(error: URLError(.badURL))
        }
        .retry(3, backoff: .exponential(), scheduler: scheduler)
        .subscribe(TestSubscriber<Int, URLError>())
        scheduler.run()
        #expect(subscriptions.withLock { $0 } == 1)
    }

    #if canImport(FoundationNetworking)
    /// On Linux, libcurl failures without a code of their own arrive as `unknown`, told apart by
    /// libcurl's message.
    @Test func linuxUnknownErrorsAreReadByTheirMessage() {
        func unknown(_ message: String) -> URLError {
            URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        }
        #expect(unknown("transfer closed with 13 bytes remaining to read").category == .retryable)
        #expect(unknown("Recv failure: Connection reset by peer").category == .retryable)
        #expect(unknown("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number").category == .nonRetryable)
        #expect(
            NetworkError.transport(unknown("OpenSSL SSL_connect: SSL_ERROR_SYSCALL")).errorDescription
                == "A secure connection to the server could not be made.")
        #expect(unknown("something else").category == .nonRetryable)
    }
    #endif

    static let wordings: [(hint: Duration, words: String)] = [
        (.zero, "in a moment"), (.milliseconds(300), "in a moment"), (.seconds(1), "in 1 second"),
        (.milliseconds(1_500), "in 2 seconds"), (.seconds(59), "in 59 seconds"), (.seconds(60), "in 1 minute"),
        (.seconds(61), "in 2 minutes"), (.seconds(300), "in 5 minutes"), (.seconds(3_600), "in 1 hour"),
        (.seconds(5 * 3_600 + 1), "in 6 hours"), (.seconds(3 * 86_400), "in 3 days"), (.seconds(30 * 86_400), "in 30 days"),
        (.seconds(99_999_999_999), "later"), (RetryAfter.unbounded, "later"),
    ]

    @Test(arguments: wordings)
    func whenToTryAgainIsWordedForPeople(_ hint: Duration, _ words: String) {
        #expect(NetworkError.whenToTryAgain(after: hint) == words)
    }

    @Test func serverErrorsSayWhatHappenedWithoutCodes() {
        func text(_ status: Int, reason: String? = nil, retryAfter: Duration? = nil) -> String? {
            let problem = reason.map { ProblemDetails(detail: $0) }
            return NetworkError(status: HTTPErrorResponse(status: status, problem: problem, retryAfter: retryAfter))
                .errorDescription
        }
        #expect(text(503, retryAfter: .seconds(300)) == "The server is busy. Please try again in 5 minutes.")
        #expect(text(503, retryAfter: RetryAfter.unbounded) == "The server is busy. Please try again later.")
        #expect(text(500, reason: "maintenance") == "The server had a problem. Please try again later.")
        #expect(text(404) == "What the app asked for could not be found.")
        #expect(text(401) == "Your session has expired. Please sign in again.")
        #expect(text(429) == "The server is busy. Please try again in a moment.")
        #expect(text(422, reason: "nameTaken") == "The server did not accept the input.")
        #expect(text(418) == "The server did not accept the request.")
        #expect(
            NetworkError.validation(HTTPErrorResponse(status: 400, problem: ProblemDetails(detail: "tooShort"))).errorDescription
                == "The server did not accept the input.")
        for status in [400, 401, 403, 404, 409, 422, 429, 500, 502, 503] {
            for hint in [nil, Duration.seconds(5), RetryAfter.unbounded] {
                let words = text(status, reason: "someReasonCode", retryAfter: hint) ?? ""
                #expect(
                    !words.contains("someReasonCode") && !words.contains("\(status)") && !words.contains("9223372036854775807"))
            }
        }
    }
}
