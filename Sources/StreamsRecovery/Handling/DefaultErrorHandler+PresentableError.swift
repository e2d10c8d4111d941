import Foundation
import Streams

extension DefaultErrorHandler {
    /// The source an error gives itself: its own ``ErrorSource`` (``ErrorSourceProviding``), or
    /// the one of its core `ErrorOrigin` (`PresentableError`), or nil.
    static func ownSource(of error: any Error) -> ErrorSource? {
        (error as? any ErrorSourceProviding)?.source ?? (error as? any PresentableError).map { ErrorSource($0.origin) }
    }

    /// The title a `PresentableError` gives itself, or nil.
    static func ownTitle(of error: any Error) -> String? {
        (error as? any PresentableError)?.presentationTitle
    }

    /// The message an error gives itself: its `LocalizedError.errorDescription`, or a
    /// `PresentableError`'s message, or nil.
    static func ownMessage(of error: any Error) -> String? {
        (error as? any LocalizedError)?.errorDescription ?? (error as? any PresentableError)?.presentationMessage
    }
}
