import Foundation
import Streams
import StreamsResilience
import Testing

/// The resilience events and the core's error wrappers never print a foreign error's text: a
/// `URLError` whose failing URL holds a password and a token shows only its type, domain and
/// code, while an error that adopts `RedactingError` shows its own description.
@Suite("Resilience events and error wrappers show no foreign error's text")
struct ErrorRedactionTests {
    static let url = "https://user:pw@example.com/a?token=SECRET"

    /// A timeout whose `userInfo` holds the URL both as a URL and as text, as Foundation's
    /// loading system fills it.
    static let urlError = URLError(
        .timedOut,
        userInfo: [
            NSURLErrorFailingURLErrorKey: URL(string: url)!,
            // The value of the deprecated `NSURLErrorFailingURLStringErrorKey`, which names it.
            "NSErrorFailingURLStringKey": url,
        ])

    /// An error of the app's that describes itself, secrets and all, without opting in.
    struct ChattyError: Error, CustomStringConvertible {
        var description: String { "failed at \(ErrorRedactionTests.url)" }
    }

    /// An error of the app's that opts in: its description is safe to print.
    enum StorageError: RedactingError, CustomStringConvertible {
        case quotaExceeded(bytes: Int)
        var description: String {
            switch self {
            case .quotaExceeded(let bytes): "quota exceeded by \(bytes) bytes"
            }
        }
    }

    /// Every string Swift makes of `value`: its description, interpolation, debug description
    /// and dump.
    static func strings(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), "\(value)", String(reflecting: value), dumped]
    }

    /// Every value that carries `error`: each event that has an error, and each wrapper.
    static func carriers<Failure: Error>(of error: Failure) -> [(String, Any)] {
        [
            ("retryScheduled", ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(1), error: error)),
            ("attemptEnded", ResilienceEvent.attemptEnded(attempt: 2, duration: .seconds(3), error: error)),
            ("retryGaveUp", ResilienceEvent.retryGaveUp(reason: .exhausted, attempts: 3, error: error)),
            ("hedgeStarted", ResilienceEvent.hedgeStarted(attempt: 2, afterFailure: error)),
            ("ResilienceError", ResilienceError.upstream(error)),
            ("RetryAttempt", RetryAttempt(retry: 1, error: error, delay: .seconds(1))),
            ("RetryReport", RetryReport(reason: .notRetryable, attempts: 1, error: error)),
            // Nested: what the policy's retry reports, and what its operators fail with.
            (
                "retryScheduled(ResilienceError)",
                ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(1), error: ResilienceError.upstream(error))
            ),
            ("RetryAttempt(ResilienceError)", RetryAttempt(retry: 1, error: ResilienceError.upstream(error), delay: .zero)),
            ("Completion", Subscribers.Completion<ResilienceError<Failure>>.failure(.upstream(error))),
        ]
    }

    @Test func theURLErrorItselfPrintsItsSecrets() {
        // What this suite guards against: without redaction, every string shows the URL.
        for string in Self.strings(of: Self.urlError) {
            #expect(string.contains("SECRET"))
        }
    }

    @Test func aURLErrorShowsOnlyItsTypeDomainAndCode() {
        for (name, carrier) in Self.carriers(of: Self.urlError) {
            for string in Self.strings(of: carrier) {
                #expect(!string.contains("SECRET"), "\(name): \(string)")
                #expect(!string.contains("pw"), "\(name): \(string)")
                #expect(!string.contains("example.com"), "\(name): \(string)")
                #expect(string.contains("URLError"), "\(name): \(string)")
                #expect(string.contains("NSURLErrorDomain"), "\(name): \(string)")
                #expect(string.contains("-1001"), "\(name): \(string)")
            }
        }
    }

    @Test func anErrorThatDoesNotOptInShowsOnlyItsTypeAndCode() {
        let error = ChattyError()
        #expect(error.redactedDescription.hasPrefix("ChattyError(domain: "))
        #expect(error.redactedDescription.hasSuffix(", code: \((error as NSError).code))"))
        for (name, carrier) in Self.carriers(of: error) {
            for string in Self.strings(of: carrier) {
                #expect(!string.contains("SECRET"), "\(name): \(string)")
                #expect(string.contains("ChattyError"), "\(name): \(string)")
            }
        }
    }

    @Test func anErrorThatOptsInShowsItsDescription() {
        let error = StorageError.quotaExceeded(bytes: 10)
        #expect(error.redactedDescription == "quota exceeded by 10 bytes")
        for (name, carrier) in Self.carriers(of: error) {
            for string in Self.strings(of: carrier) {
                #expect(string.contains("quota exceeded by 10 bytes"), "\(name): \(string)")
            }
        }
    }

    @Test func descriptionsReadAsTheCaseAndItsValues() {
        let timeout = URLError(.timedOut)
        let code = "URLError(domain: NSURLErrorDomain, code: -1001)"
        let storage = StorageError.quotaExceeded(bytes: 10)
        let described: [(Any, String)] = [
            (
                ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(2), error: timeout),
                "retryScheduled(retry: 1, delay: 2.0 seconds, error: \(code))"
            ),
            (
                ResilienceEvent.attemptEnded(attempt: 2, duration: nil, error: nil),
                "attemptEnded(attempt: 2, duration: nil, error: nil)"
            ),
            (
                ResilienceEvent.attemptEnded(attempt: 2, duration: .seconds(1), error: storage),
                "attemptEnded(attempt: 2, duration: 1.0 seconds, error: quota exceeded by 10 bytes)"
            ),
            (
                ResilienceEvent.retryGaveUp(reason: .budgetEmpty, attempts: 3, error: timeout),
                "retryGaveUp(reason: budgetEmpty, attempts: 3, error: \(code))"
            ),
            (ResilienceEvent.hedgeStarted(attempt: 2, afterFailure: nil), "hedgeStarted(attempt: 2, afterFailure: nil)"),
            (ResilienceEvent.attemptStarted(attempt: 1), "attemptStarted(attempt: 1)"),
            (ResilienceEvent.circuitStateChanged(.open), "circuitStateChanged(open)"),
            (ResilienceEvent.attemptTimedOut(timeout: .seconds(1)), "attemptTimedOut(timeout: 1.0 seconds)"),
            (ResilienceEvent.deadlineExceeded(deadline: .seconds(5)), "deadlineExceeded(deadline: 5.0 seconds)"),
            (ResilienceError<URLError>.upstream(timeout), "upstream(\(code))"),
            (
                ResilienceError<URLError>.deadlineExceeded(DeadlineExceededError(deadline: .seconds(5))),
                "deadlineExceeded(\(DeadlineExceededError(deadline: .seconds(5))))"
            ),
            (
                RetryAttempt(retry: 1, error: timeout, delay: .seconds(1)),
                "RetryAttempt(retry: 1, error: \(code), delay: 1.0 seconds)"
            ),
            (
                RetryReport(reason: .exhausted, attempts: 4, error: storage),
                "RetryReport(reason: exhausted, attempts: 4, error: quota exceeded by 10 bytes)"
            ),
        ]
        for (value, text) in described {
            #expect(String(describing: value) == text)
        }
    }

    @Test func mirrorsHoldTheRedactedTextNotTheError() {
        let event = ResilienceEvent.retryScheduled(retry: 1, delay: .seconds(1), error: Self.urlError)
        let mirror = Mirror(reflecting: event)
        #expect(mirror.displayStyle == .enum)
        #expect(mirror.children.first?.label == "retryScheduled")
        let values = Mirror(reflecting: mirror.children.first!.value).children.map(\.value)
        #expect(values.count == 3)
        #expect(!values.contains { $0 is any Error })
        #expect(values.last as? String == Self.urlError.redactedDescription)

        for wrapper in [
            Mirror(reflecting: ResilienceError.upstream(Self.urlError)),
            Mirror(reflecting: RetryAttempt(retry: 1, error: Self.urlError, delay: .zero)),
            Mirror(reflecting: RetryReport(reason: .exhausted, attempts: 1, error: Self.urlError)),
        ] {
            #expect(!wrapper.children.contains { $0.value is any Error })
            #expect(wrapper.children.contains { $0.value as? String == Self.urlError.redactedDescription })
        }
    }

    @Test func theCoresOwnErrorsOptIn() {
        let errors: [any Error] = [
            CircuitOpenError(state: .open, retryAfter: .seconds(1)), AttemptTimeoutError(timeout: .seconds(1)),
            DeadlineExceededError(deadline: .seconds(2)), LimiterRejectedError(reason: .rateLimited, retryAfter: nil),
            ResilienceError<URLError>.upstream(Self.urlError),
        ]
        for error in errors {
            #expect(error is any RedactingError)
            #expect(error.redactedDescription == String(describing: error))
        }
        #expect(!(Self.urlError is any RedactingError))
    }
}
