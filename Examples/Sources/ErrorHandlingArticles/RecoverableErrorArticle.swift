import Foundation
import Streams
import StreamsRecovery
import StreamsTesting
import Synchronization

/// The RecoverableError article's example on a console: an upload error that describes itself
/// the Foundation way (`errorDescription`, `failureReason`, `recoverySuggestion`) and offers
/// its own recovery options, and a minimum request time that keeps a fast answer, good or bad,
/// from flashing past the user.
public enum RecoverableErrorArticle {
    /// The upload's error, written for Foundation's `LocalizedError` and `RecoverableError`.
    public struct UploadError: LocalizedError, RecoverableError, CategorizedError {
        public init() {}

        public var category: ErrorCategory { .retryable }
        public var errorDescription: String? { "Upload Failed" }
        public var failureReason: String? { "The server did not answer in time." }
        public var recoverySuggestion: String? { "Check your connection, then try again." }
        public var recoveryOptions: [String] { ["Cancel", "Try Again"] }

        /// "Try Again" recovers: the upload may be sent again, by the pipeline (see the
        /// `.preparesRetry` attempter below); "Cancel", option 0, does not.
        public func attemptRecovery(optionIndex: Int) -> Bool { optionIndex == 1 }
    }

    /// What happened to the upload.
    public struct Outcome: Sendable {
        /// What the presenter was asked to show, each with the virtual time it was shown at.
        public let shown: [String]
        /// The virtual times the uploads started.
        public let uploads: [String]
        /// Each value with the virtual time it arrived at, then how the stream ended.
        public let events: [String]
    }

    /// Uploads a photo; the server answers each upload after `answerMilliseconds`, failing the first
    /// `failures` times. Every attempt is held to a minimum request time of one second.
    public static func upload(
        failures: Int, answerMilliseconds: Int = 20, answers: [String] = [],
        print: @escaping @Sendable (String) -> Void = { _ in }
    ) -> Outcome {
        let scheduler = TestScheduler()
        let uploads = Mutex<[String]>([])
        let shown = Mutex<[String]>([])
        let events = Mutex<[String]>([])
        let presenter = RecordingPresenter(answers: answers, print: print)
        let chain = ErrorHandlerChain(fallback: DefaultErrorHandler(recoveryAttempter: .preparesRetry))
        let upload = Deferred { () -> AnyPublisher<String, UploadError> in
            let number = uploads.withLock { uploads in
                uploads.append(scheduler.now.description)
                return uploads.count
            }
            print("  upload #\(number) at \(scheduler.now)")
            let response: AnyPublisher<String, UploadError> =
                number <= failures
                ? Fail(error: UploadError()).eraseToAnyPublisher()
                : Just("photo-\(number).jpg").setFailureType(to: UploadError.self).eraseToAnyPublisher()
            return response.delay(for: .milliseconds(answerMilliseconds), scheduler: scheduler).eraseToAnyPublisher()
        }
        let subscription =
            upload
            .minimumDuration(.seconds(1), scheduler: scheduler)
            .recover(through: chain) { presentation in
                shown.withLock { $0.append("\(scheduler.now) \(presentation.title): \(presentation.message)") }
                return presenter.ask(presentation)
            }
            .sink(
                receiveCompletion: { completion in
                    let text = if case .failure(let error) = completion { "failed: \(error)" } else { "finished" }
                    events.withLock { $0.append("\(scheduler.now) \(text)") }
                    print("  \(scheduler.now) \(text)")
                },
                receiveValue: { name in
                    events.withLock { $0.append("\(scheduler.now) uploaded \(name)") }
                    print("  \(scheduler.now) uploaded \(name)")
                })
        scheduler.run()
        subscription.cancel()
        return Outcome(shown: shown.withLock { $0 }, uploads: uploads.withLock { $0 }, events: events.withLock { $0 })
    }

    /// The presentation the default handler makes of an ``UploadError``.
    public static var presentation: ErrorPresentation {
        ErrorHandlerChain().presentation(for: UploadError())
    }
}
