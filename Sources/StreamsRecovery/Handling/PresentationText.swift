import Foundation
import Streams

/// The title and message an error gives for itself, if any.
///
/// - A ``UserFacingError``: its `errorDescription` is the message; the title is the source's.
/// - A `PresentableError` (such as StreamsNetworking's `NetworkError`): its title, and its
///   `LocalizedError` description or else its presentation message.
/// - A `LocalizedError` with a `failureReason` or a `recoverySuggestion`: its `errorDescription`
///   is the title, and the reason and the suggestion, in that order and joined as sentences, make
///   the message (as an alert shows Foundation's error: the description in bold, the details
///   below): "Something went wrong" and "Please, try again" give "Something went wrong. Please,
///   try again".
/// - A `LocalizedError` with only an `errorDescription`: that is the message.
struct PresentationText {
    var title: String?
    var message: String?

    init(for error: any Error) {
        if let error = error as? any UserFacingError {
            message = error.errorDescription
            return
        }
        if let presentable = error as? any PresentableError {
            title = presentable.presentationTitle
            message = (error as? any LocalizedError)?.errorDescription ?? presentable.presentationMessage
            return
        }
        guard let error = error as? any LocalizedError else { return }
        let details = [error.failureReason, error.recoverySuggestion].compactMap { text -> String? in
            guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            return text
        }
        if details.isEmpty {
            message = error.errorDescription
        } else {
            title = error.errorDescription
            message = Self.sentences(details)
        }
    }

    /// `parts` joined as sentences: a space between two, and a period before the space where
    /// the part before it does not end a sentence already (with `.`, `!`, `?` or `…`). The last
    /// part is left as it is.
    static func sentences(_ parts: [String]) -> String {
        var text = ""
        for part in parts {
            let part = part.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !part.isEmpty else { continue }
            guard let end = text.last else {
                text = part
                continue
            }
            text += (".!?…".contains(end) ? " " : ". ") + part
        }
        return text
    }
}
