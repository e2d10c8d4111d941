import Foundation
import Streams

extension DefaultErrorHandler {
    /// The source an error gives itself: its own ``ErrorSource`` (``ErrorSourceProviding``), or
    /// the one of its core `ErrorOrigin` (`PresentableError`), or nil.
    static func ownSource(of error: any Error) -> ErrorSource? {
        (error as? any ErrorSourceProviding)?.source ?? (error as? any PresentableError).map { ErrorSource($0.origin) }
    }
}
