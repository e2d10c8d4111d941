import Foundation
import Streams
import StreamsNetworking

/// The sign-up form's user-name field, validated as the user types: keystrokes are debounced,
/// duplicates dropped, names too short for the server answered at once, only the latest check
/// counts, a failure becomes a message instead of ending the pipeline, and one shared result
/// drives both the message and the button.
public final class SignUpForm<S: Scheduler>: @unchecked Sendable {
    /// What the user typed.
    @Published public var userName = ""
    /// The line under the field.
    @Published public private(set) var message = ""
    /// Whether "Sign up" is enabled.
    @Published public private(set) var isValid = false
    /// The name the message is about: set last, so that a subscriber to it sees the message
    /// and the button for that name.
    @Published public private(set) var checkedName: String?

    /// The fewest characters the server accepts in a name: shorter names are not sent.
    public static var minimumLength: Int { 4 }

    private var cancellables = Set<AnyCancellable>()

    /// Wires the pipeline; `events` is told which names the form answers itself and which
    /// ones `removeDuplicates` swallows.
    public init(
        client: UserNameClient<S>,
        scheduler: S,
        debounce: S.SchedulerTimeType.Stride = .milliseconds(800),
        events: @escaping @Sendable (CheckEvent) -> Void = { _ in }
    ) {
        let result =
            $userName
            .dropFirst()
            .debounce(for: debounce, scheduler: scheduler)
            .removeDuplicates { previous, name in
                if previous == name { events(.swallowed(name: name)) }
                return previous == name
            }
            .map { name -> AnyPublisher<(name: String, result: Result<Bool, NetworkError>), Never> in
                if let reason = Self.localRejection(of: name) {
                    events(.notSent(name: name, reason: reason))
                    return Just((name, .failure(FormMessages.rejection(reason)))).eraseToAnyPublisher()
                }
                return client.isAvailable(name).asResult().map { (name, $0) }.eraseToAnyPublisher()
            }
            .switchToLatest()
            .receive(on: scheduler)
            .share()

        result
            .map { FormMessages.message(for: $0.result) }
            .sink { [unowned self] in message = $0 }
            .store(in: &cancellables)
        result
            .map { (try? $0.result.get()) == true }
            .sink { [unowned self] in isValid = $0 }
            .store(in: &cancellables)
        result
            .map(\.name)
            .sink { [unowned self] in checkedName = $0 }
            .store(in: &cancellables)
    }

    /// The server's reason for rejecting `name` for its length, in the protocol's words, or nil
    /// when only the server can tell.
    static func localRejection(of name: String) -> String? {
        if name.isEmpty { return "emptyName" }
        if name.count < minimumLength { return "tooShort" }
        return nil
    }
}

/// What the sign-up form says for each result.
public enum FormMessages {
    /// What the form says for a result: the sign-up protocol's reasons in the user's words, and
    /// `NetworkError`'s own sentence for everything else (see Docs/ErrorHandling.md).
    ///
    /// ```swift
    /// FormMessages.message(for: .failure(FormMessages.rejection("tooShort")))   // "User names need at least 4 characters"
    /// ```
    public static func message(for result: Result<Bool, NetworkError>) -> String {
        switch result {
        case .success(true): return "Available"
        case .success(false): return "That name is taken"
        case .failure(.validation(let failure)):
            switch failure.reason {
            case "emptyName": return "Please choose a user name"
            case "tooShort": return "User names need at least 4 characters"
            case "illegalName": return "That name is not allowed"
            default: return "The server did not accept that name. Please try another one."
            }
        case .failure(let error):
            return error.errorDescription ?? "Something went wrong. Please try again."
        }
    }

    /// The validation error the server would give for `reason`, for names the form rejects
    /// before asking it.
    ///
    /// ```swift
    /// let error = FormMessages.rejection("tooShort")
    /// ```
    public static func rejection(_ reason: String?) -> NetworkError {
        .validation(HTTPErrorResponse(status: 400, problem: reason.map { ProblemDetails(detail: $0) }))
    }
}
