import SignUpClient

/// One labelled step of the demo: what is typed, what to wait for, and what must have happened.
struct Step: Sendable {
    /// What a step waits for.
    enum Wait: Sendable {
        /// The form shows a result for this name.
        case shown(String)
        /// `removeDuplicates` swallowed this name.
        case swallowed(String)
        /// The check of this name is about to retry.
        case retry(String)

        func isMet(by entry: Timeline.Entry) -> Bool {
            switch (self, entry) {
            case (.shown(let name), .shown(let shown, _, _)): name == shown
            case (.swallowed(let name), .event(.swallowed(let swallowed))): name == swallowed
            case (.retry(let name), .event(.retry(let retrying, _, _, _, _, _))): name == retrying
            default: false
            }
        }

        /// What the timeline says when the wait times out.
        var missing: String {
            switch self {
            case .shown(let name): "the form showed nothing for \"\(name)\""
            case .swallowed(let name): "removeDuplicates did not swallow \"\(name)\""
            case .retry(let name): "the check of \"\(name)\" did not retry"
            }
        }
    }

    /// The step's label in the timeline.
    let title: String
    /// The keystrokes, each one the field's whole text.
    let keystrokes: [String]
    /// More keystrokes, typed once the first wait is over (to make a check stale).
    var interruption: (when: Wait, keystrokes: [String])?
    /// What the step waits for before it checks.
    let until: Wait
    /// What the form must show then, and what else must have happened: returns the problem, or
    /// nil when the step behaved as expected.
    let check: @Sendable (_ seen: [Timeline.Entry], _ message: String, _ isValid: Bool) -> String?
}
