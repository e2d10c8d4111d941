import SignUpClient

extension DemoScript {
    /// The demo's steps, in order. Each relies only on the sign-up protocol's rules.
    static let steps: [Step] = [
        Step(
            title: "A name too short for the server is answered by the form, not sent",
            keystrokes: typing("jo"), until: .shown("jo"),
            check: { seen, message, isValid in
                expect(message, isValid, "User names need at least 4 characters", false)
                    ?? (requests(seen).isEmpty ? nil : "a request went out for a name shorter than 4 characters")
            }),
        Step(
            title: "debounce: seven fast keystrokes make one request, for the whole name",
            keystrokes: typing("johndoe"), until: .shown("johndoe"),
            check: { seen, message, isValid in
                expect(message, isValid, "That name is taken", false)
                    ?? (requests(seen).contains("johndoe") ? nil : "no request for \"johndoe\"")
            }),
        Step(
            title: "removeDuplicates: typing a letter and deleting it again sends nothing",
            keystrokes: ["johndoex", "johndoe"], until: .swallowed("johndoe"),
            check: { seen, message, isValid in
                expect(message, isValid, "That name is taken", false)
                    ?? (requests(seen).isEmpty ? nil : "the duplicate was sent")
            }),
        Step(
            title: "A name the server forbids: 400 illegalName",
            keystrokes: ["admi", "admin"], until: .shown("admin"),
            check: { _, message, isValid in expect(message, isValid, "That name is not allowed", false) }),
        Step(
            title: "An answer the app cannot read: a decoding error, not retried",
            keystrokes: ["illegalresponse"], until: .shown("illegalresponse"),
            check: { seen, message, isValid in
                expect(
                    message, isValid,
                    "The server's answer has a format this version of the app does not understand. Please update the app.", false)
                    ?? (retries(seen).isEmpty ? nil : "a decoding error was retried")
            }),
        Step(
            title: "A server error without Retry-After is shown at once, not retried",
            keystrokes: ["servererror"], until: .shown("servererror"),
            check: { seen, message, isValid in
                expect(message, isValid, "The server had a problem. Please try again later.", false)
                    ?? (retries(seen).isEmpty ? nil : "a 500 without Retry-After was retried")
            }),
        Step(
            title: "switchToLatest: a newer name makes the check waiting out maintenance stale",
            keystrokes: ["maintenance"],
            interruption: (when: .retry("maintenance"), keystrokes: ["streams"]),
            until: .shown("streams"),
            check: { seen, message, isValid in
                let cancelled = seen.contains {
                    if case .event(.cancelled("maintenance", _)) = $0 { true } else { false }
                }
                let shownForMaintenance = seen.contains {
                    if case .shown("maintenance", _, _) = $0 { true } else { false }
                }
                return expect(message, isValid, "Available", true)
                    ?? (cancelled ? nil : "the stale check of \"maintenance\" was not cancelled")
                    ?? (shownForMaintenance ? "the form showed the stale result for \"maintenance\"" : nil)
            }),
        Step(
            title: "retry: maintenance answers 500 with Retry-After; each retry waits at least the server's hint",
            keystrokes: ["maintenance"], until: .shown("maintenance"),
            check: { seen, message, isValid in
                let waits = retries(seen)
                return expect(message, isValid, "Available", true)
                    ?? (waits.isEmpty ? "maintenance recovered without a retry" : nil)
                    ?? (waits.allSatisfy { retry in retry.hint.map { $0 > .zero && retry.wait >= $0 } ?? false }
                        ? nil : "a retry did not wait for the server's Retry-After")
            }),
        Step(
            title: "An empty name is answered by the form, not sent",
            keystrokes: [""], until: .shown(""),
            check: { seen, message, isValid in
                expect(message, isValid, "Please choose a user name", false)
                    ?? (requests(seen).isEmpty ? nil : "a request went out for an empty name")
            }),
    ]

    /// The keystrokes of typing `name` letter by letter.
    static func typing(_ name: String) -> [String] {
        (1...max(1, name.count)).map { String(name.prefix($0)) }
    }

    /// The problem, if the form does not show `expected` with the button `expectedValid`.
    static func expect(_ message: String, _ isValid: Bool, _ expected: String, _ expectedValid: Bool) -> String? {
        message == expected && isValid == expectedValid
            ? nil : "the form shows \"\(message)\" (\(isValid ? "enabled" : "disabled")), expected \"\(expected)\""
    }

    /// The names requested in `seen`.
    static func requests(_ seen: [Timeline.Entry]) -> [String] {
        seen.compactMap { if case .event(.request(let name)) = $0 { name } else { nil } }
    }

    /// The server hint and the wait of each retry in `seen`.
    static func retries(_ seen: [Timeline.Entry]) -> [(hint: Duration?, wait: Duration)] {
        seen.compactMap { if case .event(.retry(_, _, let hint, _, _, let wait)) = $0 { (hint, wait) } else { nil } }
    }
}
