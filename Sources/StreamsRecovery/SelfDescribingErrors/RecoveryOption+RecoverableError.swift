import Foundation

extension RecoveryOption {
    /// The options of an error written for Foundation's `RecoverableError` (which
    /// swift-corelibs-foundation has on Linux too): one per `recoveryOptions` title; choosing
    /// one calls `attemptRecovery(optionIndex:)`. The first option is the cancel one (Cocoa's
    /// convention: option 0 dismisses), the others are normal ones.
    ///
    /// A failed recovery lets the error through. A successful one ends the stream quietly when
    /// the attempter made the new attempt itself (``RecoveryAttempter/retriesItself``, the
    /// default), or tries again when it only prepared it (``RecoveryAttempter/preparesRetry``):
    /// either way, one choice is one new request.
    ///
    /// ```swift
    /// struct UploadFailed: RecoverableError {
    ///     var recoveryOptions: [String] { ["Cancel", "Try again"] }
    ///     func attemptRecovery(optionIndex: Int) -> Bool { optionIndex == 1 && uploader.upload() }
    /// }
    /// let options = RecoveryOption.options(for: UploadFailed())   // Cancel (cancel), Try again
    /// ```
    public static func options(
        for error: some RecoverableError, attempter: RecoveryAttempter = .retriesItself
    ) -> [RecoveryOption] {
        let recovered: RecoveryDecision = attempter == .retriesItself ? .cancel : .tryAgain
        return error.recoveryOptions.enumerated().map { index, title in
            RecoveryOption(title: title, role: index == 0 ? .cancel : .normal) {
                error.attemptRecovery(optionIndex: index) ? recovered : .fail
            }
        }
    }
}
