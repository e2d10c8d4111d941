import Foundation
import Streams
import StreamsNetworking

/// The sign-up form's user-name field, validated as the user types: keystrokes are debounced,
/// duplicates dropped, only the latest check counts, a failure becomes a message instead of
/// ending the pipeline, and one shared result drives both the message and the button.
public final class SignUpForm<S: Scheduler>: @unchecked Sendable {
    /// What the user typed.
    @Published public var userName = ""
    /// The line under the field.
    @Published public private(set) var message = ""
    /// Whether "Sign up" is enabled.
    @Published public private(set) var isValid = false
    /// How many checks have come back.
    @Published public private(set) var results = 0

    private var cancellables = Set<AnyCancellable>()

    /// Wires the pipeline.
    public init(client: UserNameClient<S>, scheduler: S, debounce: S.SchedulerTimeType.Stride = .milliseconds(800)) {
        let result = $userName
            .dropFirst()
            .debounce(for: debounce, scheduler: scheduler)
            .removeDuplicates()
            .map { name in client.isAvailable(name).asResult() }
            .switchToLatest()
            .receive(on: scheduler)
            .share()

        result
            .map(FormMessages.message(for:))
            .sink { [unowned self] in
                message = $0
                results += 1
            }
            .store(in: &cancellables)
        result
            .map { (try? $0.get()) == true }
            .sink { [unowned self] in isValid = $0 }
            .store(in: &cancellables)
    }
}

/// What the sign-up form says for each result.
public enum FormMessages {
    /// What the form says for a result (see Docs/ErrorHandling.md for the strategy per error).
    public static func message(for result: Result<Bool, NetworkError>) -> String {
        switch result {
        case .success(true): return "Available"
        case .success(false): return "That name is taken"
        case .failure(.validation(let reason)):
            switch reason {
            case "emptyName": return "Please choose a user name"
            case "userNameTooShort": return "User names need at least 4 characters"
            case "illegalUserName": return "That name is not allowed"
            default: return "The server did not accept that name"
            }
        case .failure(let error):
            return error.errorDescription ?? "Something went wrong"
        }
    }
}
