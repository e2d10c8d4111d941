import Foundation
import Streams

// A small tour of Streams until the sign-up demo (with a real HTTP server) lands: a form's
// user-name field, validated as the user types.

/// What the form shows for a name.
enum Validation: Equatable {
    case tooShort
    case taken
    case available
}

final class SignUpForm {
    @Published var userName = ""
    @Published var message = ""
    @Published var isValid = false

    private var cancellables = Set<AnyCancellable>()

    init(takenNames: Set<String>) {
        // One validation per distinct name, shared by the two things the form shows.
        let validation =
            $userName
            .dropFirst()
            .removeDuplicates()
            .map { name -> Validation in
                if name.count < 4 { return .tooShort }
                return takenNames.contains(name) ? .taken : .available
            }
            .share()

        validation
            .map { validation -> String in
                switch validation {
                case .tooShort: "User name must be at least 4 characters"
                case .taken: "That name is taken"
                case .available: "Available"
                }
            }
            .removeDuplicates()
            .handleEvents(receiveOutput: { print("  message: \($0)") })
            .assign(to: &$message)

        validation
            .map { $0 == .available }
            .removeDuplicates()
            .handleEvents(receiveOutput: { print("  sign-up button: \($0 ? "enabled" : "disabled")") })
            .assign(to: &$isValid)
    }
}

let form = SignUpForm(takenNames: ["johndoe", "page"])
var checks = 0
for keystrokes in ["j", "jo", "joh", "john", "johnd", "johndo", "johndoe", "johndoe", "johndoe1"] {
    print("typed: \(keystrokes)")
    form.userName = keystrokes
    checks += 1
}
if form.isValid && form.message == "Available" {
    print("OK: \(checks) keystrokes validated; the last name is available")
} else {
    print("FAILED: the form ended in an unexpected state")
    exit(1)
}
