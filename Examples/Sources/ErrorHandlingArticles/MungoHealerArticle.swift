import Streams
import StreamsRecovery
import Synchronization

/// MungoHealer's README examples on a console: errors that say their source and message,
/// a healable network error, a fatal error, one router (`mungo`) that handles whatever a
/// `do` block throws, and an alert handler that logs every error it shows.
public final class MungoHealerArticle: Sendable {
    /// MungoHealer's `PasswordValidationError`: a `BaseError`.
    public struct PasswordValidationError: UserFacingError {
        public let errorDescription = "Your password confirmation didn't match your password. Please try again."
        public let source = ErrorSource.invalidUserInput
    }

    /// MungoHealer's `NetworkUnavailableError`: healable by trying again.
    public struct NetworkUnavailableError: HealableError, UserFacingError {
        let retryClosure: @Sendable () -> Void

        public let errorDescription = "Could not connect to server. Please check your internet connection and try again."
        public let source = ErrorSource.externalSystemUnavailable

        public var healingOptions: [RecoveryOption] {
            let retry = retryClosure
            return [
                RecoveryOption(title: "Try Again", role: .recommended) {
                    retry()
                    return .tryAgain
                },
                RecoveryOption(title: "Cancel", role: .normal) { .cancel },
            ]
        }
    }

    /// MungoHealer's `UnexpectedNilFatalError`.
    public struct UnexpectedNilFatalError: FatalError {
        public let errorDescription = "An unexpected data inconsistency has occurred. App execution can not be continued."
        public let source = ErrorSource.internalInconsistency
    }

    /// What the scripted user is shown and taps.
    public let presenter: RecordingPresenter
    /// The error log (`AlertLogErrorHandler`'s `logError`).
    public var log: [String] { record.log.withLock { $0 } }
    /// Whether the fatal hook ran (before the process ends, unless it keeps running).
    public var fatalHookRan: Bool { record.fatalHookRan.load(ordering: .relaxed) }
    /// How many times the avatar was fetched.
    public var avatarFetches: Int { record.fetches.load(ordering: .relaxed) }
    /// The avatar, once fetched.
    public var avatar: String? { record.avatar.withLock { $0 } }

    /// What happened, for the properties above.
    private final class Record: Sendable {
        let log = Mutex<[String]>([])
        let fatalHookRan = Atomic(false)
        let fetches = Atomic(0)
        let avatar = Mutex<String?>(nil)
    }

    private let record: Record
    /// `mungo`.
    private let mungo: ErrorRouter

    /// The app's set-up (`configureMungoHealer()`): an alert handler that logs every error. A
    /// confirmed fatal error ends the process, as in MungoHealer, unless `whenFatalErrorIsConfirmed`
    /// is `.keepRunning`.
    public init(
        answers: [String] = [], whenFatalErrorIsConfirmed: FatalErrorPolicy = .endProcess,
        print: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let presenter = RecordingPresenter(answers: answers, print: print)
        let record = Record()
        let fallback = DefaultErrorHandler(
            onFatalError: { _ in record.fatalHookRan.store(true, ordering: .relaxed) },
            whenFatalErrorIsConfirmed: whenFatalErrorIsConfirmed)
        let chain = ErrorHandlerChain(fallback: fallback).logging { error, _ in
            let line = "Error: \((error as? any UserFacingError)?.errorDescription ?? String(describing: error))"
            record.log.withLock { $0.append(line) }
            print("  log     \(line)")
        }
        self.presenter = presenter
        self.record = record
        self.mungo = ErrorRouter(chain: chain, present: presenter.show)
    }

    /// The README's `login`: each missing field is a `MungoError` (here ``SimpleError``).
    public func login(userName: String, password: String, apiToken: @Sendable (String, String) -> String?) -> String? {
        mungo.do {
            guard !userName.isEmpty else { throw SimpleError(source: .invalidUserInput, message: "Please enter a username.") }
            guard !password.isEmpty else { throw SimpleError(source: .invalidUserInput, message: "Please enter a password.") }
            guard let token = apiToken(userName, password) else {
                throw SimpleError(source: .invalidUserInput, message: "Username and password did not match.")
            }
            return token
        }
    }

    /// The README's `loadAvatarImage`: fetching fails with `failures` network errors first.
    public func loadAvatarImage(failures: Int) {
        mungo.do {
            let avatar = try fetchImage(failures: failures)
            record.avatar.withLock { $0 = avatar }
        }
    }

    private func fetchImage(failures: Int) throws -> String {
        let number = record.fetches.add(1, ordering: .relaxed).newValue
        guard number > failures else {
            throw NetworkUnavailableError(retryClosure: { [self] in loadAvatarImage(failures: failures) })
        }
        return "avatar.png"
    }

    /// Confirming two passwords (the README's `PasswordValidationError`).
    public func confirm(password: String, confirmation: String) {
        mungo.do {
            guard password == confirmation else { throw PasswordValidationError() }
        }
    }

    /// A value that must be there is not: the README's fatal error.
    public func readSettings() {
        mungo.do { throw UnexpectedNilFatalError() }
    }
}
